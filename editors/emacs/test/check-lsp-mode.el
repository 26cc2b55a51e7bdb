;;; check-lsp-mode.el --- drive lsp-mode with shmem-lint-lsp-mode.el in `emacs --batch' -*- lexical-binding: t; -*-

;; Opens a file as a user would, with lsp-mode starting clangd and
;; shmem-lint's add-on server on it, waits for both servers' diagnostics and
;; writes what Flymake shows to a report (test/lit/lsp/editor-emacs-lsp-mode.test):
;;
;;   emacs --batch -l lsp-mode -l editors/emacs/shmem-lint-lsp-mode.el \
;;     --eval '(setq shmem-lint-command (list "shmem-lint" "lsp"))' \
;;     -l editors/emacs/test/check-lsp-mode.el \
;;     --eval '(shmem-lint-check-lsp-mode "DIR/FILE.cu")'
;;
;; The project DIR is added as an lsp-mode workspace folder first (what
;; M-x lsp-workspace-folders-add does, or the answer to lsp-mode's question
;; on the first file of a project).  Environment: SHMEM_LINT_OUT the report
;; file (default: stderr); SHMEM_LINT_FIX=1 also runs M-x
;; lsp-execute-code-action on the first finding, saves the file and waits for
;; the analysis of the saved text; SHMEM_LINT_CLIENTS the servers to wait for
;; (default "clangd,shmem-lint"); SHMEM_LINT_TIMEOUT the wait for each step in
;; seconds (default 60).

;;; Code:

(require 'cl-lib)
(require 'lsp-mode)
(require 'flymake)

;; Flymake's other backends in C++ buffers (flymake-cc runs `make
;; check-syntax') fail in the test's folder and stop `emacs --batch'; the
;; diagnostics here are the language servers' only.
(setq-default flymake-diagnostic-functions nil)
(add-hook 'c++-mode-hook
          (lambda () (remove-hook 'flymake-diagnostic-functions #'flymake-cc t)))

(defvar shmem-lint-check--lines nil)
(defvar shmem-lint-check--published nil
  "(SERVER-ID . DIAGNOSTICS) of each publishDiagnostics for the file, newest first.")
(defvar shmem-lint-check--uri nil)

(defun shmem-lint-check--say (fmt &rest args)
  (push (apply #'format fmt args) shmem-lint-check--lines))

(defun shmem-lint-check--finish (code)
  (let ((text (concat (mapconcat #'identity (reverse shmem-lint-check--lines) "\n")
                      "\n"))
        (out (getenv "SHMEM_LINT_OUT")))
    (if (and out (not (string= out "")))
        (with-temp-file out (insert text))
      (princ text #'external-debugging-output))
    (ignore-errors (mapc #'lsp-workspace-shutdown (lsp--session-workspaces (lsp-session))))
    (kill-emacs code)))

(defun shmem-lint-check--wait (what pred)
  (let* ((s (getenv "SHMEM_LINT_TIMEOUT"))
         (timeout (if (and s (not (string= s ""))) (string-to-number s) 60))
         (deadline (+ (float-time) timeout)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred)
      (shmem-lint-check--say "timeout: %s" what)
      (shmem-lint-check--finish 1))))

(defun shmem-lint-check--server-id (workspace)
  (symbol-name (lsp--client-server-id (lsp--workspace-client workspace))))

(advice-add 'lsp--on-diagnostics :before
            (lambda (workspace params)
              (when (equal (lsp:publish-diagnostics-params-uri params) shmem-lint-check--uri)
                (push (cons (shmem-lint-check--server-id workspace)
                            (append (lsp:publish-diagnostics-params-diagnostics params) nil))
                      shmem-lint-check--published))))

(defun shmem-lint-check--publishes (server)
  (cl-remove-if-not (lambda (p) (equal (car p) server)) shmem-lint-check--published))

(defun shmem-lint-check--report ()
  "Report what Flymake shows, and which server said it; return
shmem-lint's diagnostics in Flymake."
  (let* ((diags (sort (flymake-diagnostics)
                      (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
         ;; lsp-mode's Flymake text is the message alone: find the server of
         ;; each by its message in the server's newest publish.
         (shmem-messages
          (mapcar (lambda (d) (lsp:diagnostic-message d))
                  (cdr (car (shmem-lint-check--publishes "shmem-lint")))))
         (shmem nil))
    (shmem-lint-check--say "flymake diagnostics: %d (shmem-lint: %d)" (length diags)
                           (cl-count-if (lambda (d) (member (flymake-diagnostic-text d)
                                                            shmem-messages))
                                        diags))
    (dolist (d diags)
      (let* ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d))
             (text (flymake-diagnostic-text d))
             (server (if (member text shmem-messages) "shmem-lint" "other")))
        (when (equal server "shmem-lint") (push d shmem))
        (shmem-lint-check--say
         "%s %d:%d-%d:%d %s %s" server
         (line-number-at-pos beg)
         (save-excursion (goto-char beg) (1+ (current-column)))
         (line-number-at-pos end)
         (save-excursion (goto-char end) (1+ (current-column)))
         (flymake-diagnostic-type d)
         (car (split-string text "\n")))))
    (dolist (d (cdr (car (shmem-lint-check--publishes "shmem-lint"))))
      (shmem-lint-check--say "shmem-lint published: source %s code %s"
                             (lsp:diagnostic-source? d) (lsp:diagnostic-code? d)))
    (nreverse shmem)))

(defun shmem-lint-check--flymake-settled ()
  "Whether Flymake shows the newest diagnostics of every server."
  (let ((servers (mapcar #'shmem-lint-check--server-id (lsp-workspaces))))
    (and (cl-every (lambda (s) (shmem-lint-check--publishes s)) servers)
         (= (length (flymake-diagnostics))
            (apply #'+ (mapcar (lambda (s) (length (cdr (car (shmem-lint-check--publishes s)))))
                               servers))))))

(defun shmem-lint-check-lsp-mode (file)
  "Visit FILE as a user would and report what lsp-mode shows."
  (let* ((file (expand-file-name file))
         (expected (or (getenv "SHMEM_LINT_CLIENTS") "clangd,shmem-lint")))
    (setq shmem-lint-check--uri (lsp--path-to-uri file))
    (lsp-workspace-folders-add (file-name-directory file))
    (switch-to-buffer (find-file-noselect file))
    (shmem-lint-check--say "emacs %s lsp-mode %s mode %s" emacs-version
                           (ignore-errors
                             (package-version-join
                              (package-desc-version
                               (car (alist-get 'lsp-mode (package--alist)))))) major-mode)
    (shmem-lint-check--wait
     (concat "servers " expected)
     (lambda ()
       (and (lsp-workspaces)
            (equal (mapconcat #'identity
                              (sort (mapcar #'shmem-lint-check--server-id (lsp-workspaces))
                                    #'string<)
                              ",")
                   expected)
            (cl-every (lambda (w) (eq (lsp--workspace-status w) 'initialized))
                      (lsp-workspaces)))))
    (shmem-lint-check--say "servers: %s" expected)
    (shmem-lint-check--wait "diagnostics of every server" #'shmem-lint-check--flymake-settled)
    (let ((diags (shmem-lint-check--report)))
      (when (and diags (equal (getenv "SHMEM_LINT_FIX") "1"))
        (goto-char (flymake-diagnostic-beg (car diags)))
        (let ((tick (buffer-chars-modified-tick))
              (before (length (shmem-lint-check--publishes "shmem-lint"))))
          ;; M-x lsp-execute-code-action at the finding: the actions of
          ;; every server there; the user takes the first of the menu.
          (cl-letf (((symbol-function 'completing-read)
                     (lambda (prompt collection &rest _)
                       (shmem-lint-check--say "prompt: %s" prompt)
                       (let ((items (if (functionp collection)
                                        (all-completions "" collection)
                                      (mapcar (lambda (c) (if (consp c) (car c) c)) collection))))
                         (dolist (c items) (shmem-lint-check--say "action: %s" c))
                         (car items)))))
            (call-interactively #'lsp-execute-code-action))
          (shmem-lint-check--wait "code action edit"
                                  (lambda () (/= tick (buffer-chars-modified-tick))))
          (save-buffer)
          (shmem-lint-check--say "after the fix:")
          (save-excursion
            (goto-char (point-min))
            (while (re-search-forward "__shared__" nil t)
              (shmem-lint-check--say "%d: %s" (line-number-at-pos)
                                     (buffer-substring (line-beginning-position)
                                                       (line-end-position)))))
          (shmem-lint-check--wait "diagnostics of the saved file"
                                  (lambda ()
                                    (and (> (length (shmem-lint-check--publishes "shmem-lint")) before)
                                         (shmem-lint-check--flymake-settled))))
          (shmem-lint-check--report))))
    (shmem-lint-check--finish 0)))

;;; check-lsp-mode.el ends here
