;;; check.el --- drive Eglot with shmem-lint.el in `emacs --batch' -*- lexical-binding: t; -*-

;; Opens a file as a user would (its major mode starts Eglot through
;; shmem-lint.el), waits for the server's diagnostics and writes what Flymake
;; shows to a report (test/lit/lsp/editor-emacs*.test check it):
;;
;;   emacs --batch -l editors/emacs/shmem-lint.el \
;;     --eval '(setq shmem-lint-command (list "shmem-lint" "lsp"))' \
;;     -l editors/emacs/test/check.el --eval '(shmem-lint-check "FILE.cu")'
;;
;; Environment: SHMEM_LINT_OUT the report file (default: stdout);
;; SHMEM_LINT_FIX=1 also runs M-x eglot-code-actions on the first finding,
;; picks the offered action, saves the file (C-x C-s) and waits for the
;; analysis of the saved text; SHMEM_LINT_TIMEOUT the wait for each step in
;; seconds (default 60).  Exits 0 when every step happened, 1 when one timed
;; out (the report says which).
;;
;; `emacs --batch' runs no idle timers, so Eglot's didChange (sent when
;; Emacs is idle after an edit) goes out only with the save, which sends
;; pending changes first.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'flymake)

(defvar shmem-lint-check--lines nil)
(defvar shmem-lint-check--published nil
  "(URI . DIAGNOSTICS) of each publishDiagnostics, newest first.")

(defun shmem-lint-check--say (fmt &rest args)
  (push (apply #'format fmt args) shmem-lint-check--lines))

(defun shmem-lint-check--finish (code)
  (let ((text (concat (mapconcat #'identity (reverse shmem-lint-check--lines) "\n")
                      "\n"))
        (out (getenv "SHMEM_LINT_OUT")))
    (if (and out (not (string= out "")))
        (with-temp-file out (insert text))
      (princ text #'external-debugging-output))
    (dolist (server (hash-table-values eglot--servers-by-project))
      (dolist (s server)
        (ignore-errors (eglot-shutdown s nil 5))))
    (kill-emacs code)))

(defun shmem-lint-check--timeout ()
  (let ((s (getenv "SHMEM_LINT_TIMEOUT")))
    (if (and s (not (string= s ""))) (string-to-number s) 60)))

(defun shmem-lint-check--wait (what pred)
  "Let the server's messages in until PRED holds; give up after the timeout."
  (let ((deadline (+ (float-time) (shmem-lint-check--timeout))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred)
      (shmem-lint-check--say "timeout: %s" what)
      (shmem-lint-check--finish 1))))

(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (push (cons (plist-get params :uri) (plist-get params :diagnostics))
                      shmem-lint-check--published))))

(defun shmem-lint-check--publishes (uri)
  (cl-remove-if-not (lambda (p) (equal (car p) uri)) shmem-lint-check--published))

(defun shmem-lint-check--flymake ()
  "Flymake's diagnostics in the buffer, in order."
  (sort (flymake-diagnostics)
        (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))

(defun shmem-lint-check--report ()
  (let ((diags (shmem-lint-check--flymake)))
    (shmem-lint-check--say "flymake diagnostics: %d" (length diags))
    (dolist (d diags)
      (let ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d)))
        (shmem-lint-check--say
         "%d:%d-%d:%d %s %s"
         (line-number-at-pos beg)
         (save-excursion (goto-char beg) (1+ (current-column)))
         (line-number-at-pos end)
         (save-excursion (goto-char end) (1+ (current-column)))
         (flymake-diagnostic-type d)
         (car (split-string (flymake-diagnostic-text d) "\n")))))
    diags))

(defun shmem-lint-check--wait-for-flymake (uri count)
  "Wait for publish number COUNT for URI and for Flymake to show it."
  (shmem-lint-check--wait
   "diagnostics"
   (lambda ()
     (let ((p (shmem-lint-check--publishes uri)))
       (and (>= (length p) count)
            (= (length (flymake-diagnostics)) (length (cdr (car p)))))))))

(defun shmem-lint-check (file)
  "Visit FILE as a user would and report what shmem-lint's server says."
  (switch-to-buffer (find-file-noselect file))
  (shmem-lint-check--say "emacs %s eglot %s mode %s" emacs-version
                         (if (fboundp 'package-get-version)
                             (or (ignore-errors
                                   (with-current-buffer (find-file-noselect
                                                         (locate-library "eglot.el"))
                                     (package-get-version)))
                                 "?")
                           "?")
                         major-mode)
  ;; `eglot-ensure' (in the mode hook) connects after the command that
  ;; visited the file; run that end of a command loop iteration.
  (run-hooks 'post-command-hook)
  (shmem-lint-check--wait "eglot connected" #'eglot-current-server)
  (let* ((server (eglot-current-server))
         (uri (eglot--path-to-uri buffer-file-name)))
    (shmem-lint-check--wait "server initialized"
                            (lambda () (eglot--server-capable :textDocumentSync)))
    (shmem-lint-check--say "server: %s" (plist-get (eglot--server-info server) :name))
    (shmem-lint-check--say "language id: %s" (eglot--language-id server))
    (shmem-lint-check--wait-for-flymake uri 1)
    (let ((diags (shmem-lint-check--report)))
      (when diags
        ;; The documentation ElDoc shows at the first finding (the hover).
        (goto-char (flymake-diagnostic-beg (car diags)))
        (let* ((hover (jsonrpc-request server :textDocument/hover
                                       (eglot--TextDocumentPositionParams)))
               (contents (and hover (plist-get hover :contents))))
          (if (not contents)
              (shmem-lint-check--say "hover: none")
            ;; The markdown, line by line, as ElDoc shows it.
            (dolist (line (split-string (format "%s" (plist-get contents :value)) "\n"))
              (shmem-lint-check--say "hover| %s" line)))))
      (when (and diags (equal (getenv "SHMEM_LINT_FIX") "1"))
        (goto-char (flymake-diagnostic-beg (car diags)))
        (let ((tick (buffer-chars-modified-tick))
              (before (length (shmem-lint-check--publishes uri))))
          ;; M-x eglot-code-actions at the finding; the user takes the
          ;; default of the menu (the preferred action).
          (cl-letf (((symbol-function 'completing-read)
                     (lambda (prompt collection &rest args)
                       (dolist (c collection)
                         (shmem-lint-check--say "action: %s" (car c)))
                       (shmem-lint-check--say "prompt: %s" prompt)
                       (nth 4 args)))
                    ((symbol-function 'y-or-n-p)
                     (lambda (prompt)
                       (shmem-lint-check--say "unexpected question: %s" prompt)
                       nil)))
            (let ((last-nonmenu-event ?\r))
              (call-interactively #'eglot-code-actions)))
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
          (shmem-lint-check--wait-for-flymake uri (1+ before))
          (shmem-lint-check--report))))
    (shmem-lint-check--finish 0)))

;;; check.el ends here
