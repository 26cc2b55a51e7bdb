;;; shmem-lint.el --- shmem-lint's language server in Emacs, through Eglot -*- lexical-binding: t; -*-

;; Runs `shmem-lint lsp' (shmem-lint's language server) on CUDA buffers with
;; Eglot: findings show up as Flymake diagnostics, the padding fix is a code
;; action (M-x eglot-code-actions at the finding; Eglot 1.9's
;; eglot-code-action-quickfix lists actions without applying them) and the
;; lane -> bank picture is in the ElDoc documentation at point.
;;
;; Needs Emacs 26.3 or newer with Eglot 1.9 or newer (built in since Emacs 29;
;; elpa-eglot on Debian 12; M-x package-install RET eglot elsewhere).
;;
;; Install: copy this file to ~/.emacs.d/lisp/ and add to your init file
;;
;;   (add-to-list 'load-path "~/.emacs.d/lisp")
;;   (require 'shmem-lint)
;;   ;; optional, M-x customize-group RET shmem-lint:
;;   (setq shmem-lint-arguments '("--cuda-path=none" "--checks=shmem-*"))
;;
;; .cu and .cuh files open in `cuda-mode' when it is installed (MELPA), else
;; in `shmem-lint-cuda-mode', a `c++-mode' of their own; Eglot starts
;; shmem-lint's server on buffers of both modes.  They need a mode of their
;; own because Eglot (up to version 1.10 at least) runs one server per major
;; mode and project: a buffer is either shmem-lint's or clangd's, and
;; c++-mode stays clangd's.  For clangd's completion beside shmem-lint's
;; findings in one CUDA buffer use lsp-mode, whose add-on servers run beside
;; the main one (editors/clangd/README.md).

;;; Code:

(require 'cl-lib)
(require 'eglot)

(defgroup shmem-lint nil
  "The shmem-lint CUDA shared-memory analyser, through Eglot."
  :group 'tools
  :prefix "shmem-lint-")

(defcustom shmem-lint-command '("shmem-lint" "lsp")
  "The command line of shmem-lint's language server."
  :type '(repeat string))

(defcustom shmem-lint-arguments nil
  "Options of shmem-lint for every analysis, e.g. (\"--cuda-path=none\").
Sent as the server's initializationOptions.arguments."
  :type '(repeat string))

(defcustom shmem-lint-compilation-database-path nil
  "The folder of compile_commands.json, relative to the project root.
nil: the server looks for one beside the file and in the folders above
it (and their build/ folders)."
  :type '(choice (const :tag "Search" nil) directory))

(defcustom shmem-lint-debounce-ms nil
  "Milliseconds the server waits after an edit before analysing (nil: 400)."
  :type '(choice (const :tag "Default" nil) integer))

;;;###autoload
(define-derived-mode shmem-lint-cuda-mode c++-mode "CUDA"
  "Major mode for CUDA sources: `c++-mode', with shmem-lint's server.")

(defun shmem-lint--initialization-options (_server)
  "The initializationOptions object for the server."
  (append
   (and shmem-lint-arguments
        (list :arguments (vconcat shmem-lint-arguments)))
   (and shmem-lint-compilation-database-path
        (list :compilationDatabasePath shmem-lint-compilation-database-path))
   (and shmem-lint-debounce-ms
        (list :debounceMs shmem-lint-debounce-ms))))

(defun shmem-lint--contact (&optional _interactive)
  "The Eglot contact of the server: the command line and its options."
  (append shmem-lint-command
          (list :initializationOptions #'shmem-lint--initialization-options)))

;; languageId "cuda" for both modes (the server analyses any languageId).
(add-to-list 'eglot-server-programs
             `(((shmem-lint-cuda-mode :language-id "cuda")
                (cuda-mode :language-id "cuda"))
               . shmem-lint--contact))

(unless (fboundp 'cuda-mode)
  (add-to-list 'auto-mode-alist '("\\.cuh?\\'" . shmem-lint-cuda-mode)))

(add-hook 'shmem-lint-cuda-mode-hook #'eglot-ensure)
(add-hook 'cuda-mode-hook #'eglot-ensure)

(provide 'shmem-lint)
;;; shmem-lint.el ends here
