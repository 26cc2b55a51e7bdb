;;; shmem-lint-options.el --- shmem-lint language server options -*- lexical-binding: t; -*-

;;; Commentary:

;; The options of shmem-lint's language server (`shmem-lint lsp') that both
;; Emacs setups read: shmem-lint.el (Eglot) and shmem-lint-lsp-mode.el
;; (lsp-mode's add-on server beside clangd).  Each loads this file from its
;; own folder.

;;; Code:

(defgroup shmem-lint nil
  "The shmem-lint CUDA shared-memory analyser, through its language server."
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

(defun shmem-lint-initialization-options ()
  "The initializationOptions object for the server."
  (append
   (and shmem-lint-arguments
        (list :arguments (vconcat shmem-lint-arguments)))
   (and shmem-lint-compilation-database-path
        (list :compilationDatabasePath shmem-lint-compilation-database-path))
   (and shmem-lint-debounce-ms
        (list :debounceMs shmem-lint-debounce-ms))))

(provide 'shmem-lint-options)
;;; shmem-lint-options.el ends here
