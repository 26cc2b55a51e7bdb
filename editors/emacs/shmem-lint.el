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

(require 'shmem-lint-options
         (expand-file-name "shmem-lint-options"
                           (file-name-directory
                            (or load-file-name buffer-file-name))))

;;;###autoload
(define-derived-mode shmem-lint-cuda-mode c++-mode "CUDA"
  "Major mode for CUDA sources: `c++-mode', with shmem-lint's server.")

(defun shmem-lint--contact (&optional _interactive)
  "The Eglot contact of the server: the command line and its options."
  (append shmem-lint-command
          (list :initializationOptions
                (lambda (_server) (shmem-lint-initialization-options)))))

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
