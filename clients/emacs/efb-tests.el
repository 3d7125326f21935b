;;; efb-tests.el --- ERT tests of efb.el against the real engine -*- lexical-binding: t; -*-
;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:

;; These tests start the real engine ($EFB_BINARY, else efb on PATH)
;; and play it through the keys of `efb-mode', as a player would: the
;; introduction, the whole first chapter and the first level of the
;; second, plus hints arriving on their own on the real clock.  Others
;; start `efb serve' on a socket in a fresh folder and join it with
;; `efb-attach', as a controller and as observers.
;;
;;   EFB_BINARY=.build/debug/efb clients/emacs/run-tests

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'efb)

(defvar efb-test--spoken nil
  "What the game said during a test, newest first.")

(defconst efb-test--virtual
  '("--seed" "1" "--clock" "virtual" "--memory-save")
  "A deterministic game: fixed seed, virtual clock, no save file.")

(defmacro efb-test--with-game (args &rest body)
  "Start a game with efb pipe ARGS, run BODY in its buffer, then quit."
  (declare (indent 1) (debug t))
  `(let ((efb-program (or (getenv "EFB_BINARY") "efb"))
         (efb-program-args ,args)
         (efb-sound-function #'ignore)
         (efb-ambience-function #'ignore)
         (efb-announce-function
          (lambda (text _assertive) (push text efb-test--spoken))))
     (setq efb-test--spoken nil)
     (when (get-buffer efb-buffer-name)
       (kill-buffer efb-buffer-name))
     (let ((buffer (efb)))
       (unwind-protect
           (with-current-buffer buffer
             ,@body
             (should-not efb--filter-errors))
         (when (buffer-live-p buffer)
           (with-current-buffer buffer (efb-quit t))
           (kill-buffer buffer))))))

(defun efb-test--press (key &optional prefix)
  "Press KEY in the game's buffer (with PREFIX argument) and wait."
  (let ((command (lookup-key efb-mode-map (kbd key)))
        (current-prefix-arg prefix))
    (should (commandp command))
    (call-interactively command)
    (should (efb-sync))))

(defun efb-test--focused-line ()
  "The text of the line at point, checking it is the focused one."
  (let ((line (buffer-substring-no-properties (line-beginning-position)
                                              (line-end-position))))
    (should (equal (get-text-property (line-beginning-position) 'efb-element)
                   efb--focus))
    (should (string-prefix-p "> " line))
    line))

(defun efb-test--index (id)
  "The position of the element ID on screen."
  (cl-position id efb--elements
               :key (lambda (element) (alist-get 'id element)) :test #'equal))

(defun efb-test--move-to (id)
  "Press n or p until the element ID has the focus (and point)."
  (should (efb-test--index id))
  (dotimes (_ 20)
    (unless (equal efb--focus id)
      (efb-test--press (if (< (efb-test--index efb--focus) (efb-test--index id))
                           "n" "p"))))
  (should (equal efb--focus id))
  (efb-test--focused-line))

(defun efb-test--said-p (regexp)
  "Non-nil when something said since the last call matched REGEXP."
  (prog1 (seq-find (lambda (text) (string-match-p regexp text)) efb-test--spoken)
    (setq efb-test--spoken nil)))

(defun efb-test--screen ()
  "The id of the screen on show."
  (alist-get 'screen efb--screen))

(ert-deftest efb-test-introduction ()
  "The introduction's three pages, read and turned with the keys."
  (efb-test--with-game efb-test--virtual
    (should (equal efb--version '(1 2)))
    (should (equal (efb-test--screen) "intro-1"))
    (should (string-match-p "\\`> Darkness$" (efb-test--focused-line)))
    (should (string-match-p "Darkness" header-line-format))
    (should (efb-test--said-p "\\`Darkness, heading"))
    ;; One line per element, the focus marked.
    (should (= (count-lines (point-min) (point-max)) 3))
    (should (string-match-p "^  Continue \\[button\\]$" (buffer-string)))
    (efb-test--press "n")
    (should (string-match-p "You wake on cold stone" (efb-test--focused-line)))
    (should (efb-test--said-p "You wake on cold stone"))
    (efb-test--press "n")
    (should (string-match-p "Continue" (efb-test--focused-line)))
    ;; At the last element the focus stays, with the boundary sound.
    (efb-test--press "n")
    (should (equal efb--focus "continue"))
    (should (equal (car efb--sounds) "boundary"))
    (efb-test--press "p")
    (should (equal efb--focus "text"))
    (efb-test--press ">")
    (efb-test--press "RET")
    (should (equal (efb-test--screen) "intro-2"))
    (should (efb-test--said-p "How to play"))
    (should (string-match-p "\\`> How to play" (efb-test--focused-line)))
    (efb-test--press "SPC")
    (should (equal (efb-test--screen) "intro-3"))
    (efb-test--press "SPC")
    (should (equal (efb-test--screen) "chapter-cellar"))
    (should (member "chapter" efb--sounds))
    (should (efb-test--said-p "Chapter 1: The Cellar of Echoes"))
    ;; The chapter page names the keys of this front end.
    (should (string-match-p "next: n, previous: p, activate: RET"
                            (buffer-string)))))

(ert-deftest efb-test-first-chapter ()
  "Play the first chapter, and the first level of the second.
On the way: a hint, a wrong answer and the level menu."
  (efb-test--with-game efb-test--virtual
    ;; Escape skips the introduction.
    (efb-test--press "e")
    (should (equal (efb-test--screen) "chapter-cellar"))
    (efb-test--move-to "begin")
    (efb-test--press "RET")
    (should (equal (efb-test--screen) "level-cellar-door"))
    (should (efb-test--said-p "The First Door"))
    ;; Protocol 1.2 names the level's chapter; its levels are counted from the
    ;; first progress of this session (the opening's came before the hello).
    (should (equal efb--chapter "cellar"))
    ;; Hints: none yet on the virtual clock, one after waiting.
    (efb-test--press "h")
    (should (efb-test--said-p "No hint yet"))
    (efb-test--press "w" 31)
    (should (efb-test--said-p "A new hint is ready"))
    (efb-test--press "h")
    (should (efb-test--said-p "Hint 1 of 2: The answer is not something"))
    ;; A wrong answer keeps the player on the level.
    (efb-test--move-to "moonlight")
    (efb-test--press "RET")
    (should (equal (car efb--sounds) "wrong"))
    (should (efb-test--said-p "No moonlight reaches this deep"))
    (should (equal (efb-test--screen) "level-cellar-door"))
    ;; The menu opens over the level, and escape closes it.
    (efb-test--press "m")
    (should (equal (efb-test--screen) "menu"))
    (should (string-match-p "Level 1.1: The First Door: current"
                            (efb-test--focused-line)))
    (should (string-match-p "Level 1.2: The Singing Wall: locked \\[button, dimmed\\]"
                            (buffer-string)))
    (efb-test--press "e")
    (should (equal (efb-test--screen) "level-cellar-door"))
    ;; The right answer.
    (efb-test--move-to "senses")
    (efb-test--press "RET")
    (should (member "solved" efb--sounds))
    (should (efb-test--said-p "The door swings open"))
    (should (equal (efb-test--screen) "level-cellar-water"))
    (should (equal (efb--chapter-progress) "cellar 1/4"))
    (should (string-match-p "cellar 1/4" (format "%s" header-line-format)))
    (should (string-match-p "1/25 solved" header-line-format))
    ;; Level 2: the key moves the focus; here point is moved instead,
    ;; and RET activates the element on the line at point.
    (goto-char (point-min))
    (re-search-forward "^  Running water")
    (efb-test--press "RET")
    (should (efb-test--said-p "You follow the sound of the water"))
    (should (equal (efb-test--screen) "level-cellar-jars"))
    ;; Level 3, with the keys.
    (efb-test--move-to "oil-jar")
    (efb-test--press "RET")
    (should (efb-test--said-p "The lamp catches"))
    (should (equal (efb-test--screen) "level-cellar-stairs"))
    ;; Level 4 ends the chapter.
    (efb-test--move-to "lower")
    (efb-test--press "RET")
    (should (efb-test--said-p "The cellar lets you go"))
    (should (equal (efb-test--screen) "chapter-stones"))
    (should (equal (alist-get 'completed efb--progress)
                   '("cellar-door" "cellar-water" "cellar-jars"
                     "cellar-stairs")))
    (should (string-match-p "4/25 solved" header-line-format))
    (should (string-match-p "\\`> Chapter 2" (efb-test--focused-line)))
    ;; Chapter 2 opens with a typed answer, read in the minibuffer.
    (efb-test--move-to "begin")
    (efb-test--press "RET")
    (should (equal (efb-test--screen) "level-stones-memory"))
    (cl-letf (((symbol-function 'read-string)
               (lambda (&rest _) "the lantern")))
      (efb-test--move-to "answer")
      (efb-test--press "RET"))
    (should (efb-test--said-p "The stone stays silent"))
    (should (string-match-p "the lantern \\[text field\\]" (buffer-string)))
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "Glass")))
      (efb-test--press "t"))
    (should (member "solved" efb--sounds))
    (should (equal (efb-test--screen) "level-stones-count"))
    (should-not (seq-find (lambda (error) (not (equal (alist-get 'code error)
                                                      "stale")))
                          efb--errors))))

(defconst efb-test--root
  (locate-dominating-file (or load-file-name default-directory) "Package.swift")
  "The repository's root.")

(ert-deftest efb-test-every-level-kind ()
  "Play the example adventure's five level kinds with their keys.
Answers, a typed word, rotors, custom actions and dials."
  (efb-test--with-game
      (append efb-test--virtual
              (list "--adventure"
                    (expand-file-name "docs/examples/lantern-room.json"
                                      efb-test--root)))
    (efb-test--press "SPC")
    (efb-test--press "SPC")
    (should (equal (efb-test--screen) "level-room-latch"))
    (efb-test--move-to "warm-handle")
    (efb-test--press "RET")
    (should (equal (efb-test--screen) "level-room-word"))
    ;; Text beyond ASCII goes to the engine and comes back intact.
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "Café — ü 😀")))
      (efb-test--press "t"))
    (should (efb-test--said-p "The plate stays cold"))
    (should (string-match-p "^> Your answer: Café — ü 😀 \\[text field\\]$"
                            (buffer-string)))
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "a lantern")))
      (efb-test--press "t"))
    (should (equal (efb-test--screen) "level-room-dial"))
    ;; Rotors: d and u step through the codes, r and R switch rotors.
    (efb-test--move-to "door")
    (should (string-match-p "(rotors: Codes, Clues)" (efb-test--focused-line)))
    (efb-test--press "d")
    (should (string-match-p "Dial door, locked: 27" (efb-test--focused-line)))
    (efb-test--press "d")
    (should (string-match-p ": 72" (efb-test--focused-line)))
    (efb-test--press "r")
    (should (efb-test--said-p "Clues"))
    (efb-test--press "R")
    (should (efb-test--said-p "Codes"))
    (efb-test--press "u")
    (should (string-match-p ": 27" (efb-test--focused-line)))
    (efb-test--press "RET")
    (should (equal (efb-test--screen) "level-room-shelf"))
    ;; Custom actions: a numeric prefix picks one, else the minibuffer.
    (efb-test--move-to "candle")
    (efb-test--press "a" 1)
    (should (efb-test--said-p "The candle burns"))
    (should (string-match-p "Candle: Light it" (efb-test--focused-line)))
    (efb-test--move-to "key")
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (should (equal collection '("Put it in the lock" "Drop it")))
                 "Put it in the lock")))
      (efb-test--press "a"))
    (should (equal (efb-test--screen) "level-room-wheels"))
    ;; Dials: + and - turn the wheel at point; SPC tries.
    (efb-test--move-to "left-wheel")
    (dotimes (_ 5) (efb-test--press "+"))
    (efb-test--press "-")
    (should (string-match-p "Left wheel: 4" (efb-test--focused-line)))
    (efb-test--move-to "right-wheel")
    (efb-test--press "=")
    (efb-test--press "+")
    (should (string-match-p "Right wheel: 2" (efb-test--focused-line)))
    (efb-test--press "SPC")
    (should (equal (alist-get 'kind efb--screen) "end"))
    (should (equal (alist-get 'reason efb--ended) "escaped"))
    (should (member "escaped" efb--sounds))
    (should (string-match-p "5/5 solved" header-line-format))))

(ert-deftest efb-test-keys-typed-ahead ()
  "Act on the engine's focus with keys typed ahead.
A key pressed before the engine answered acts where the earlier keys
left the focus, not on the line point was on."
  (efb-test--with-game efb-test--virtual
    (efb-test--press "e")
    (should (equal efb--focus "title"))
    ;; > then RET at once: RET activates begin, not the title at point.
    (call-interactively (lookup-key efb-mode-map (kbd ">")))
    (call-interactively (lookup-key efb-mode-map (kbd "RET")))
    (should (efb-sync))
    (should (equal (efb-test--screen) "level-cellar-door"))
    (should-not efb--errors)
    ;; With nothing in flight, RET acts on the line at point.
    (goto-char (point-min))
    (re-search-forward "^  What will guide you")
    (efb-test--press "RET")
    (should (efb-test--said-p "Nothing happens"))
    (should (equal efb--focus "question"))))

(ert-deftest efb-test-torch ()
  "Show a timed level's torch in the header line.
Its warnings are said, the menu pauses it, and it goes out."
  (let* ((adventure (with-temp-buffer
                      (insert-file-contents
                       (expand-file-name "docs/examples/lantern-room.json"
                                         efb-test--root))
                      (json-parse-buffer)))
         (level (aref (gethash "levels" (aref (gethash "chapters" adventure)
                                              0))
                      0))
         (file (make-temp-file "efb-timed" nil ".json")))
    (puthash "timeLimit" 30 level)
    (unwind-protect
        (progn
          (with-temp-file file (insert (json-serialize adventure)))
          (efb-test--with-game (append efb-test--virtual
                                       (list "--adventure" file))
            (efb-test--press "e")
            (efb-test--move-to "begin")
            (efb-test--press "RET")
            (should (equal (efb-test--screen) "level-room-latch"))
            (should (string-match-p "torch 30 s\\'" header-line-format))
            (efb-test--press "w" 12)
            (should (string-match-p "torch 18 s\\'" header-line-format))
            (efb-test--press "w" 4)
            (should (efb-test--said-p "15 seconds of torchlight left"))
            (should (string-match-p "torch 14 s\\'" header-line-format))
            (efb-test--press "m")
            (should (string-match-p "torch 14 s (paused)" header-line-format))
            (efb-test--press "e")
            (should (string-match-p "torch 14 s\\'" header-line-format))
            ;; The torch goes out: the level starts over.
            (efb-test--press "w" 20)
            (should (member "torch-out" efb--sounds))
            (should (string-match-p "torch 30 s\\'" header-line-format))))
      (delete-file file))))

(ert-deftest efb-test-valid-actions-and-repeat ()
  "The list of valid actions, chosen from the minibuffer, and repeat."
  (efb-test--with-game efb-test--virtual
    (should (equal (alist-get 'screen efb--valid-actions) "intro-1"))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (should (assoc "Skip the introduction" collection))
                 "Skip the introduction")))
      (efb-test--press "v"))
    (should (equal (efb-test--screen) "chapter-cellar"))
    (efb-test--press "h")
    (should (efb-test--said-p "This level has no hints"))
    (efb-test--press "l")
    (should (efb-test--said-p "This level has no hints"))))

(ert-deftest efb-test-unsolicited-hint ()
  "On the real clock, a hint unlocking is said as it arrives."
  (efb-test--with-game '("--seed" "1" "--clock" "real" "--memory-save"
                         "--hint-interval" "0.3")
    (let (idle)
      (add-hook 'efb-event-hook
                (lambda (event)
                  (when (equal (alist-get 'type event) "idle")
                    (setq idle t)))
                nil t)
      (efb-test--press "e")
      (efb-test--move-to "begin")
      (efb-test--press "RET")
      (should (equal (efb-test--screen) "level-cellar-door"))
      (setq efb-test--spoken nil)
      ;; Nothing is sent: the notice comes on its own, ended by idle.
      (let ((deadline (+ (float-time) 10)))
        (while (and (not idle) (< (float-time) deadline))
          (accept-process-output efb--process 0.1)))
      (should idle)
      (should (member "hint" efb--sounds))
      (should (efb-test--said-p "A new hint is ready"))
      (let ((notice (seq-find (lambda (event)
                                (equal (alist-get 'category event) "hint"))
                              efb--announcements)))
        (should notice)
        (should-not (alist-get 'replyTo notice))))))

(ert-deftest efb-test-engine-exit ()
  "Quitting ends the engine and says so in the buffer."
  (efb-test--with-game efb-test--virtual
    (efb-quit t)
    (should efb--finished)
    (should-not (process-live-p efb--process))
    (should (string-match-p "The game has ended" (buffer-string)))
    (should-error (efb-next) :type 'user-error)))

;;; A shared game (efb serve)

(defvar-local efb-test--heard nil
  "What the game said in this buffer, newest first.")

(defvar efb-test--clients nil "The buffers of the clients attached.")

(defvar efb-test--server nil
  "The efb serve of the test, as `efb-test--serve' returned it.")

(defun efb-test--serve ()
  "Start efb serve on a socket in a fresh 0700 folder.
Return (PROCESS SOCKET FOLDER)."
  (let* ((folder (make-temp-file "efb-serve" t))
         (socket (expand-file-name "game.sock" folder))
         (process nil))
    (set-file-modes folder #o700)
    (setq process
          (make-process :name "efb serve"
                        :buffer (generate-new-buffer " *efb serve*")
                        :command (append (list (or (getenv "EFB_BINARY") "efb")
                                               "serve" "--socket" socket)
                                         efb-test--virtual)
                        :connection-type 'pipe
                        :noquery t))
    ;; It says where it serves once it listens.
    (let ((deadline (+ (float-time) 20)))
      (while (and (process-live-p process)
                  (< (float-time) deadline)
                  (not (with-current-buffer (process-buffer process)
                         (string-match-p "served on" (buffer-string)))))
        (accept-process-output process 0.05)))
    (should (file-exists-p socket))
    (list process socket folder)))

(defun efb-test--stop-server (server)
  "Stop the efb serve of SERVER, as `efb-test--serve' returned it."
  (let ((process (nth 0 server)))
    (when (process-live-p process)
      (signal-process process 'SIGTERM)
      (let ((deadline (+ (float-time) 10)))
        (while (and (process-live-p process) (< (float-time) deadline))
          (accept-process-output process 0.05))))
    (when (process-live-p process)
      (delete-process process))
    (kill-buffer (process-buffer process))
    (delete-directory (nth 2 server) t)))

(defmacro efb-test--with-server (socket &rest body)
  "Run BODY with efb serve listening on SOCKET (a variable bound to it).
Clients attached in BODY with `efb-test--attach' are closed after it."
  (declare (indent 1) (debug t))
  `(let* ((efb-test--server (efb-test--serve))
          (,socket (nth 1 efb-test--server))
          (efb-test--clients nil)
          (efb-sound-function #'ignore)
          (efb-ambience-function #'ignore)
          (efb-announce-function
           (lambda (text _assertive) (push text efb-test--heard))))
     (unwind-protect
         (progn ,@body)
       (dolist (buffer efb-test--clients)
         (when (buffer-live-p buffer)
           (should-not (buffer-local-value 'efb--filter-errors buffer))
           (kill-buffer buffer)))
       (efb-test--stop-server efb-test--server))))

(defun efb-test--attach (socket name)
  "Join the game on SOCKET in a buffer called NAME; return the buffer."
  (when (get-buffer name) (kill-buffer name))
  (let ((buffer (efb-attach socket name)))
    (push buffer efb-test--clients)
    (should (buffer-live-p buffer))
    (with-current-buffer buffer
      (should (efb--live-p))
      (should (equal efb--socket socket)))
    buffer))

(defun efb-test--heard-p (regexp)
  "Non-nil when this buffer's game said something matching REGEXP.
Forget what was said."
  (prog1 (seq-find (lambda (text) (string-match-p regexp text))
                   efb-test--heard)
    (setq efb-test--heard nil)))

(defun efb-test--until (predicate)
  "Read the game's output until PREDICATE is non-nil (10 s at most)."
  (let ((deadline (+ (float-time) 10)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05)))
  (should (funcall predicate)))

(ert-deftest efb-test-default-socket ()
  "The default socket is efb serve's."
  (let ((process-environment (cons "XDG_RUNTIME_DIR=/run/user/7"
                                   process-environment)))
    (should (equal (efb-default-socket)
                   "/run/user/7/escape-from-blindness/game.sock")))
  (let ((process-environment (cons "XDG_RUNTIME_DIR" process-environment)))
    (should (equal (efb-default-socket)
                   (format "/tmp/escape-from-blindness-%d/game.sock"
                           (user-uid))))))

(ert-deftest efb-test-attach-refuses-another-users-socket ()
  "A socket another user serves, or in a folder others can reach, is not joined: nothing is said to it."
  (efb-test--with-server socket
    (should-not (efb--socket-problem socket))
    (let ((folder (file-name-directory socket)))
      ;; A folder open to others.
      (set-file-modes folder #o755)
      (should (string-match-p "open to other users" (efb--socket-problem socket)))
      (should-error (efb-attach socket "*efb-refused*") :type 'user-error)
      (should-not (get-buffer "*efb-refused*"))
      (set-file-modes folder #o700)
      ;; A socket (and folder) that another user owns: nobody, when the tests run as root.
      (when (zerop (user-uid))
        (should (zerop (call-process "chown" nil nil nil "-h" "65534" socket)))
        (should (string-match-p "served by another user (uid 65534)" (efb--socket-problem socket)))
        (should-error (efb-attach socket "*efb-refused*") :type 'user-error)
        (should (zerop (call-process "chown" nil nil nil "65534" (directory-file-name folder))))
        (should (string-match-p "belongs to another user (uid 65534)" (efb--socket-problem socket)))
        (should (zerop (call-process "chown" nil nil nil "-R" "0" (directory-file-name folder))))
        ;; A folder that is another user's symbolic link to ours.
        (let ((link (concat (directory-file-name folder) "-link")))
          (make-symbolic-link (directory-file-name folder) link)
          (unwind-protect
              (progn
                (should-not (efb--socket-problem (expand-file-name "game.sock" link)))
                (should (zerop (call-process "chown" nil nil nil "-h" "65534" link)))
                (should (string-match-p "symbolic link that belongs to another user"
                                        (efb--socket-problem (expand-file-name "game.sock" link)))))
            (delete-file link)))))))

(ert-deftest efb-test-attach-controller ()
  "The first client to join controls the game, and plays the introduction."
  (efb-test--with-server socket
    (with-current-buffer (efb-test--attach socket "*efb*")
      (should (equal efb--role "controller"))
      (should-not efb--control-free)
      ;; Each client of the socket agrees on its own version: 1.2 here.
      (should (equal efb--version '(1 2)))
      (should (string-match-p "\\`controller | Darkness" header-line-format))
      (should (efb-test--heard-p "\\`You control the game\\. Darkness, heading"))
      (should (equal (efb-test--screen) "intro-1"))
      (should (string-match-p "\\`> Darkness$" (efb-test--focused-line)))
      (efb-test--press "n")
      (should (string-match-p "You wake on cold stone" (efb-test--focused-line)))
      (should (efb-test--heard-p "You wake on cold stone"))
      (efb-test--press ">")
      (efb-test--press "RET")
      (should (equal (efb-test--screen) "intro-2"))
      (should (efb-test--heard-p "How to play"))
      (efb-test--press "SPC")
      (should (equal (efb-test--screen) "intro-3"))
      (efb-test--press "SPC")
      (should (equal (efb-test--screen) "chapter-cellar"))
      (should (member "chapter" efb--sounds))
      (should (efb-test--heard-p "Chapter 1: The Cellar of Echoes"))
      (should (equal efb--chapter "cellar"))
      (should (equal (efb--chapter-progress) "cellar 0/4"))
      ;; The controller's hello named this front end's keys.
      (should (string-match-p "next: n, previous: p, activate: RET"
                              (buffer-string)))
      ;; Already in control: C says so, and sends nothing.
      (efb-test--press "C")
      (should (efb-test--heard-p "You already control the game"))
      (should-not efb--errors))))

(ert-deftest efb-test-attach-observer ()
  "A second client follows the controller's gestures, and cannot make any."
  (efb-test--with-server socket
    (let ((controller (efb-test--attach socket "*efb*"))
          (observer (efb-test--attach socket "*efb observer*")))
      (with-current-buffer observer
        (should (equal efb--role "observer"))
        (should (string-match-p "\\`observer | Darkness" header-line-format))
        (should (efb-test--heard-p
                 "\\`You follow the game; another player controls it\\."))
        (should (equal (efb-test--screen) "intro-1"))
        (should (string-match-p "\\`> Darkness$" (efb-test--focused-line))))
      ;; The controller moves: the observer's buffer and speech follow.
      (with-current-buffer controller (efb-test--press "n"))
      (with-current-buffer observer
        (should (efb-sync))
        (should (equal efb--focus "text"))
        (should (string-match-p "\\`> You wake on cold stone"
                                (efb-test--focused-line)))
        (should (efb-test--heard-p "You wake on cold stone")))
      (with-current-buffer controller
        (efb-test--press ">")
        (efb-test--press "RET"))
      (with-current-buffer observer
        (should (efb-sync))
        (should (equal (efb-test--screen) "intro-2"))
        (should (string-match-p "\\`> How to play" (efb-test--focused-line)))
        (should (efb-test--heard-p "How to play"))
        ;; The observer's gesture is refused, plainly, and moves nothing.
        (efb-test--press "n")
        (should (equal (alist-get 'code (car efb--errors)) "read_only"))
        (should (efb-test--heard-p
                 (concat "\\`You are only following the game: another player"
                         " controls it, so you cannot do that\\. Press C to"
                         " take control once they hand it over\\.")))
        (should (string-match-p "\\`> How to play" (efb-test--focused-line)))
        ;; Taking control is refused while the controller has it.
        (efb-test--press "C")
        (should (equal (alist-get 'code (car efb--errors)) "controlled"))
        (should (efb-test--heard-p "\\`Another player controls the game"))
        (should (equal efb--role "observer")))
      (with-current-buffer controller
        (should (efb-sync))
        (should (equal (efb-test--screen) "intro-2"))
        (should (equal efb--focus (alist-get 'id (car efb--elements))))
        (should-not efb--errors)))))

(ert-deftest efb-test-attach-chapter ()
  "A client joining mid-chapter names the chapter at once, saying nothing twice."
  (efb-test--with-server socket
    (with-current-buffer (efb-test--attach socket "*efb*")
      (efb-test--walk '((type . "escape")) '((type . "activate") (element . "begin")))
      (should (equal (efb-test--screen) "level-cellar-door")))
    (setq efb-test--heard nil)
    (with-current-buffer (efb-test--attach socket "*efb observer*")
      (should (equal efb--version '(1 2)))
      (should (equal (efb-test--screen) "level-cellar-door"))
      (should (equal efb--chapter "cellar"))
      (should (equal (efb--chapter-progress) "cellar 0/4"))
      ;; Joining said the screen; the state asked again is shown, not said.
      (should efb-test--heard)
      (should (equal efb-test--heard (seq-uniq efb-test--heard))))))

(ert-deftest efb-test-attach-hand-over ()
  "The controller hands over; the observer takes control and plays."
  (efb-test--with-server socket
    (let ((first (efb-test--attach socket "*efb*"))
          (second (efb-test--attach socket "*efb second*")))
      (with-current-buffer first
        (setq efb-test--heard nil)
        (efb-test--press "O")
        (should (equal efb--role "observer"))
        (should efb--control-free)
        (should (string-match-p "\\`observer, control free | "
                                header-line-format))
        (should (efb-test--heard-p
                 "\\`You follow the game; nobody controls it: press C")))
      (with-current-buffer second
        (should (efb-sync))
        (should efb--control-free)
        (should (efb-test--heard-p
                 "\\`Nobody controls the game now: press C to take control"))
        (efb-test--press "C")
        (should (equal efb--role "controller"))
        (should-not efb--control-free)
        (should (string-match-p "\\`controller | " header-line-format))
        (should (efb-test--heard-p "\\`You control the game\\."))
        (efb-test--press "SPC")
        (should (equal (efb-test--screen) "intro-2"))
        (should-not efb--errors))
      (with-current-buffer first
        (should (efb-sync))
        (should (equal efb--role "observer"))
        (should-not efb--control-free)
        (should (string-match-p "\\`observer | " header-line-format))
        (should (efb-test--heard-p "Another player controls the game now"))
        (should (equal (efb-test--screen) "intro-2"))
        (efb-test--press "SPC")
        (should (equal (alist-get 'code (car efb--errors)) "read_only"))
        (should (efb-test--heard-p "\\`You are only following the game")))
      ;; The controller leaving frees control too; nothing is said to it.
      (with-current-buffer second (setq efb-test--heard nil))
      (kill-buffer second)
      (with-current-buffer first
        ;; Said on its own, though no burst ends.
        (efb-test--until (lambda () efb-test--heard))
        (should efb--control-free)
        (should (efb-test--heard-p "\\`Nobody controls the game now"))
        (efb-test--press "C")
        (should (equal efb--role "controller"))
        (efb-test--press "SPC")
        (should (equal (efb-test--screen) "intro-3"))))))

(ert-deftest efb-test-attach-closing ()
  "Leaving, the game ending and the server going are said; buffers stay."
  (efb-test--with-server socket
    (let ((controller (efb-test--attach socket "*efb*"))
          (observer (efb-test--attach socket "*efb observer*"))
          (last (efb-test--attach socket "*efb last*")))
      ;; An observer leaves: the game goes on.
      (with-current-buffer observer
        (efb-quit t)
        (efb-test--until (lambda () efb--closed))
        (should (efb-test--heard-p "\\`You left the game; it goes on"))
        (should (string-match-p "\\[You left the game\\." (buffer-string)))
        (should (string-match-p "^> Darkness$" (buffer-string)))
        (should-error (efb-next) :type 'user-error))
      (should (buffer-live-p observer))
      (with-current-buffer controller
        (efb-test--press "n")
        (should (equal efb--focus "text"))
        ;; The controller quits: the game ends for everyone.
        (efb-quit t)
        (efb-test--until (lambda () efb--closed))
        (should (efb-test--heard-p "The game is over"))
        (should (string-match-p "\\[The game has ended; the connection closed\\.\\]"
                                (buffer-string))))
      (with-current-buffer last
        (efb-test--until (lambda () efb--closed))
        (should efb--finished)
        (should (equal (alist-get 'reason efb--ended) "quit"))
        (should (efb-test--heard-p "The game is over"))
        (should (string-match-p "^> You wake on cold stone" (buffer-string)))
        (should (string-match-p "\\[The game has ended; the connection closed\\.\\]"
                                (buffer-string))))
      (should (buffer-live-p last))))
  ;; The server goes away without a word.
  (efb-test--with-server socket
    (with-current-buffer (efb-test--attach socket "*efb*")
      (signal-process (nth 0 efb-test--server) 'SIGKILL)
      (efb-test--until (lambda () efb--closed))
      (should (efb-test--heard-p "\\`The connection to the game closed: its server is gone"))
      (should (string-match-p "\\[The connection to the game closed\\." (buffer-string)))
      (should-error (efb-next) :type 'user-error)))
  ;; No game served there.
  (let ((folder (make-temp-file "efb-serve" t)))
    (unwind-protect
        (should-error (efb-attach (expand-file-name "game.sock" folder)
                                  "*efb nowhere*")
                      :type 'user-error)
      (when (get-buffer "*efb nowhere*") (kill-buffer "*efb nowhere*"))
      (delete-directory folder t))))

(provide 'efb-tests)

;;; The keys an Emacs user missed next to the console

(defun efb-test--walk (&rest commands)
  "Send COMMANDS (alists) one by one, waiting for each."
  (dolist (command commands)
    (efb--send command)
    (should (efb-sync))))

(defun efb-test--to-chapter-2 ()
  "Play the first chapter straight to the first level of the second."
  (efb-test--walk '((type . "escape")) '((type . "activate") (element . "begin"))
                  '((type . "activate") (element . "senses"))
                  '((type . "activate") (element . "water"))
                  '((type . "activate") (element . "oil-jar"))
                  '((type . "activate") (element . "lower"))
                  '((type . "activate") (element . "begin")))
  (should (equal (efb-test--screen) "level-stones-memory")))

(defmacro efb-test--with-timed-level (&rest body)
  "Run BODY in a game on the example adventure's first level, timed 30 s."
  (declare (indent 0) (debug t))
  `(let* ((adventure (with-temp-buffer
                       (insert-file-contents
                        (expand-file-name "docs/examples/lantern-room.json"
                                          efb-test--root))
                       (json-parse-buffer)))
          (level (aref (gethash "levels" (aref (gethash "chapters" adventure)
                                               0))
                       0))
          (file (make-temp-file "efb-timed" nil ".json")))
     (puthash "timeLimit" 30 level)
     (unwind-protect
         (progn
           (with-temp-file file (insert (json-serialize adventure)))
           (efb-test--with-game (append efb-test--virtual
                                        (list "--adventure" file))
             (efb-test--press "e")
             (efb-test--move-to "begin")
             (efb-test--press "RET")
             (should (equal (efb-test--screen) "level-room-latch"))
             ,@body))
       (delete-file file))))

(ert-deftest efb-test-time-left-on-a-key ()
  "T says the torch's time left, not only the header line."
  (efb-test--with-game efb-test--virtual
    (efb-test--press "T")
    (should (efb-test--said-p "\\`No torch burns on this level\\.\\'")))
  (efb-test--with-timed-level
    (efb-test--press "T")
    (should (efb-test--said-p "\\`30 seconds of torch left\\.\\'"))
    (efb-test--press "w" 29)
    (efb-test--press "T")
    (should (efb-test--said-p "\\`1 second of torch left\\.\\'"))
    (efb-test--press "m")
    (efb-test--press "T")
    (should (efb-test--said-p "\\`1 second of torch left, paused\\.\\'"))))

(ert-deftest efb-test-clock-off-and-on ()
  "c turns the clock off (the torch waits) and on again."
  (let ((efb-time-pressure t))
   (efb-test--with-timed-level
    (efb-test--press "c")
    (should-not efb-time-pressure)
    (should (efb-test--said-p "\\`The clock is off"))
    (efb-test--press "w" 60)
    (should-not (member "torch-out" efb--sounds))
    (should (equal (efb-test--screen) "level-room-latch"))
    (efb-test--press "c")
    (should efb-time-pressure)
    (should (efb-test--said-p "\\`The clock is on"))))
  ;; A game started with the clock off has it off from the start.
  (let ((efb-time-pressure nil))
    (efb-test--with-timed-level
      (should-not efb-time-pressure)
      (efb-test--press "w" 60)
      (should-not (member "torch-out" efb--sounds)))))

(ert-deftest efb-test-replay ()
  "N starts the game over once the player agrees."
  (efb-test--with-game efb-test--virtual
    (efb-test--walk '((type . "escape")) '((type . "activate") (element . "begin"))
                    '((type . "activate") (element . "senses")))
    (should (equal (alist-get 'completed efb--progress) '("cellar-door")))
    (cl-letf (((symbol-function 'y-or-n-p) (lambda (&rest _) nil)))
      (efb-test--press "N"))
    (should (equal (efb-test--screen) "level-cellar-water"))
    (cl-letf (((symbol-function 'y-or-n-p)
               (lambda (prompt) (should (string-match-p "progress" prompt)) t)))
      (efb-test--press "N"))
    (should (equal (efb-test--screen) "intro-1"))
    (should (null (alist-get 'completed efb--progress)))
    (should (efb-test--said-p "A new game begins"))))

(ert-deftest efb-test-go-to-level ()
  "j goes to an unlocked level; a locked one is refused plainly."
  (efb-test--with-game efb-test--virtual
    (efb-test--walk '((type . "escape")) '((type . "activate") (element . "begin"))
                    '((type . "activate") (element . "senses")))
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "1.1")))
      (efb-test--press "j"))
    (should (equal (efb-test--screen) "level-cellar-door"))
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) " 3.1 ")))
      (efb-test--press "j"))
    (should (equal (efb-test--screen) "level-cellar-door"))
    (should (efb-test--said-p "level 3.1 is not unlocked yet"))
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "the vault")))
      (should-error (efb-test--press "j") :type 'user-error))))

(ert-deftest efb-test-undo ()
  "U takes back the moves of the level, one by one."
  (efb-test--with-game efb-test--virtual
    (efb-test--to-chapter-2)
    (efb-test--press "U")
    (should (efb-test--said-p "\\`Nothing to take back on this level\\.\\'"))
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "the lantern")))
      (efb-test--press "t"))
    (should (efb-test--said-p "The stone stays silent"))
    (should (equal (alist-get 'value (efb--element "answer")) "the lantern"))
    ;; The answer was typed, then submitted: two moves.
    (efb-test--press "U")
    (should (efb-test--said-p "Move taken back"))
    (should (equal (alist-get 'value (efb--element "answer")) "the lantern"))
    (efb-test--press "U")
    (should (member (alist-get 'value (efb--element "answer")) '(nil "")))
    (should (equal (efb-test--screen) "level-stones-memory"))
    (efb-test--press "U")
    (should (efb-test--said-p "\\`Nothing to take back"))
    ;; C-/ (Emacs's undo key) does the same.
    (should (eq (lookup-key efb-mode-map (kbd "C-/")) #'efb-undo))
    ;; A solved level cannot be taken back: the moves were of that level.
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "glass")))
      (efb-test--press "t"))
    (should (equal (efb-test--screen) "level-stones-count"))
    (efb-test--press "U")
    (should (efb-test--said-p "\\`Nothing to take back"))
    (should (equal (efb-test--screen) "level-stones-count"))))

(ert-deftest efb-test-distinct-action-names ()
  "The choices of v have distinct names: the two Hear a hint differ."
  (efb-test--with-game efb-test--virtual
    (efb-test--walk '((type . "escape")) '((type . "activate") (element . "begin")))
    (should (efb-sync))
    (let ((names (mapcar #'car (efb--action-choices))))
      (should (equal names (delete-dups (copy-sequence names))))
      (should (member "Hear a hint (SPC)" names))
      (should (member "Hear a hint (h)" names)))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (&rest _) "Hear a hint (h)")))
      (efb-test--press "v"))
    (should (efb-test--said-p "No hint yet"))))

(ert-deftest efb-test-q-quits-the-window ()
  "q leaves the game's window, as in every Emacs special buffer."
  (efb-test--with-game efb-test--virtual
    (let ((buffer (current-buffer)))
      (switch-to-buffer buffer)
      (should (eq (lookup-key efb-mode-map (kbd "q")) #'quit-window))
      (call-interactively (lookup-key efb-mode-map (kbd "q")))
      (should-not (eq (window-buffer (selected-window)) buffer))
      (set-buffer buffer)
      ;; Nothing was sent: the game is where it was, and goes on.
      (should (efb-sync))
      (should (equal (efb-test--screen) "intro-1"))
      (should (efb--live-p))
      ;; M-x efb shows it again.
      (should (eq (efb) buffer))
      (should (eq (window-buffer (selected-window)) buffer)))))

(ert-deftest efb-test-sound-through-the-engines-pack ()
  "Without Emacspeak, cues and ambiences play the engine's own sounds."
  (let* ((log (make-temp-file "efb-sounds"))
         (player (make-temp-file "efb-player" nil ".sh"))
         (efb-sound-directory nil))
    (with-temp-file player
      (insert "#!/bin/sh\necho \"$1\" >> " (shell-quote-argument log) "\n"
              "case \"$1\" in */ambiences/*) exec sleep 60;; esac\n"))
    (set-file-modes player #o700)
    (unwind-protect
        (let ((ambience nil))
          (efb-test--with-game efb-test--virtual
            (setq-local efb-sound-player player)
            (setq-local efb-sound-function #'efb-default-sound)
            (setq-local efb-ambience-function #'efb-default-ambience)
            ;; The pack installed next to the engine is found.
            (should (file-exists-p (expand-file-name "cues/chapter.wav"
                                                     (efb--sound-directory))))
            (efb-test--press "e")
            (should (equal (efb-test--screen) "chapter-cellar"))
            (setq ambience efb--ambience-process)
            (should (process-live-p ambience))
            (should (equal efb--ambience "water-behind-a-wall"))
            (efb-test--until
             (lambda ()
               (with-temp-buffer
                 (insert-file-contents log)
                 (and (string-match-p "/cues/chapter\\.wav$" (buffer-string))
                      (string-match-p "/ambiences/water-behind-a-wall\\.wav$"
                                      (buffer-string))))))
            (should-not (fboundp 'emacspeak-auditory-icon)))
          ;; Quitting the game stops the ambience.
          (efb-test--until (lambda () (not (process-live-p ambience)))))
      (delete-file log)
      (delete-file player))))

(ert-deftest efb-test-attach-playing-takes-control ()
  "In a game nobody controls, simply playing takes control."
  (efb-test--with-server socket
    (let ((first (efb-test--attach socket "*efb*"))
          (second (efb-test--attach socket "*efb second*")))
      (with-current-buffer first
        (efb-test--press "O")
        (should efb--control-free))
      (with-current-buffer second
        (should (efb-sync))
        (should (equal efb--role "observer"))
        (should efb--control-free)
        (setq efb-test--heard nil)
        ;; No C first: the gesture takes control and is carried out.
        (efb-test--press "SPC")
        (efb-test--until (lambda () (equal efb--role "controller")))
        (should (equal (efb-test--screen) "intro-2"))
        (should-not efb--errors)
        (should (efb-test--heard-p "You control the game")))
      (with-current-buffer first
        (should (efb-sync))
        (should-not efb--control-free)
        ;; Control is taken now: the other player's gesture is refused.
        (efb-test--press "SPC")
        (should (equal (alist-get 'code (car efb--errors)) "read_only"))
        (should (equal (efb-test--screen) "intro-2"))))))

;;; efb-tests.el ends here
