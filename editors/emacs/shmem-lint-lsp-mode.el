;;; shmem-lint-lsp-mode.el --- shmem-lint's language server in Emacs, through lsp-mode -*- lexical-binding: t; -*-

;; For lsp-mode users (shmem-lint.el is the same for Eglot): runs
;; `shmem-lint lsp' on .cu and .cuh buffers as an lsp-mode add-on server,
;; beside the buffer's main server (clangd), so one CUDA buffer has clangd's
;; completion and navigation and shmem-lint's findings together.  Findings
;; are Flymake or Flycheck diagnostics (whichever lsp-mode uses), the padding
;; fix is a code action (M-x lsp-execute-code-action) and the lane -> bank
;; picture is in the hover (M-x lsp-describe-thing-at-point).
;;
;; Needs lsp-mode 8.0 or newer (elpa-lsp-mode on Debian 12, MELPA).
;;
;; Install: copy this file to ~/.emacs.d/lisp/ and add to your init file
;;
;;   (add-to-list 'load-path "~/.emacs.d/lisp")
;;   (with-eval-after-load 'lsp-mode (require 'shmem-lint-lsp-mode))
;;   (add-hook 'c++-mode-hook #'lsp-deferred)   ; clangd and shmem-lint
;;   ;; optional:
;;   (setq shmem-lint-arguments '("--cuda-path=none" "--checks=shmem-*"))
;;
;; .cu and .cuh files open in `c++-mode' (unless `cuda-mode' is installed),
;; where lsp-mode starts clangd (languageId "cpp"; clangd reads the file name
;; and parses CUDA) and this add-on.  With `cuda-mode', clangd needs telling
;; that cuda-mode is C++ (see editors/clangd/README.md).

;;; Code:

(require 'lsp-mode)

(require 'shmem-lint-options
         (expand-file-name "shmem-lint-options"
                           (file-name-directory
                            (or load-file-name buffer-file-name))))


(defun shmem-lint-lsp-mode--cuda-file-p (file-name _mode)
  "Whether FILE-NAME is a CUDA source (.cu) or header (.cuh)."
  (and file-name (string-match-p "\\.cuh?\\'" file-name)))

(lsp-register-client
 (make-lsp-client
  :new-connection (lsp-stdio-connection (lambda () shmem-lint-command))
  :activation-fn #'shmem-lint-lsp-mode--cuda-file-p
  :add-on? t
  :priority -2
  :server-id 'shmem-lint
  :initialization-options #'shmem-lint-initialization-options))

;; With Flymake, lsp-mode (8.0 up to its master of 2026 at least) reports on
;; each server's publishDiagnostics the diagnostics of that server only: its
;; handler runs with `lsp--cur-workspace' bound to that server, and the
;; Flymake backend asks `lsp-diagnostics' for the current workspace's.  So
;; clangd's next publish would hide shmem-lint's findings until shmem-lint
;; publishes again.  Report the buffer's diagnostics of every server.
(defun shmem-lint-lsp-mode--flymake-every-server (update &rest args)
  "Run UPDATE (with ARGS) for the diagnostics of all the buffer's servers."
  (let ((lsp--cur-workspace nil))
    (apply update args)))

(with-eval-after-load 'lsp-diagnostics
  (advice-add 'lsp-diagnostics--flymake-update-diagnostics :around
              #'shmem-lint-lsp-mode--flymake-every-server))

(unless (assq 'cuda-mode lsp-language-id-configuration)
  (add-to-list 'lsp-language-id-configuration '(cuda-mode . "cuda")))

(unless (fboundp 'cuda-mode)
  (add-to-list 'auto-mode-alist '("\\.cuh?\\'" . c++-mode)))

(provide 'shmem-lint-lsp-mode)
;;; shmem-lint-lsp-mode.el ends here
