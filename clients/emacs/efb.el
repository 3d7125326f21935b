;;; efb.el --- Play Escape From Blindness in Emacs -*- lexical-binding: t; -*-
;; SPDX-License-Identifier: Apache-2.0

;; Copyright (C) 2026 The Escape From Blindness authors

;; Author: The Escape From Blindness authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: games

;; This file is not part of GNU Emacs.

;;; Commentary:

;; An Emacs front end for the Escape From Blindness engine, made for
;; Emacspeak users but usable by anyone.  `M-x efb' starts `efb pipe'
;; and talks to it in protocol 1.2 (newline-delimited JSON, see
;; Protocol/README.md in the game's repository).  `M-x efb-attach'
;; joins a game that `efb serve' shares over a Unix domain socket
;; instead: the first player to join controls the game, the others
;; follow it (they see and hear every move, but cannot make one).
;;
;; The *efb* buffer shows the screen on show, one line per element, in
;; reading order.  The focused element is marked with "> " and point
;; sits on it.  What the game says (announcements, the focus, errors)
;; is spoken through Emacspeak's `dtk-speak' when it is loaded, and
;; shown with `message' otherwise; `efb-announce-function' changes that.
;; Everything said is also kept in the *efb log* buffer.
;;
;; Keys (the gestures of a touch screen reader):
;;
;;   n / p        next / previous element (swipe right / left)
;;   < / >        first / last element
;;   RET          activate the element at point (double tap); on a
;;                text field, read an answer in the minibuffer first
;;   t            type an answer into the text field and submit it
;;   r / R        next / previous rotor
;;   d / u        next / previous rotor item (swipe down / up)
;;   a            a custom action of the element (prefix N: the Nth)
;;   + / -        adjust a dial up / down (also =)
;;   SPC          magic tap (the screen's main action)
;;   e / ESC      escape (back out; opens the level menu on a level)
;;   h            hear a hint
;;   m            open the level menu
;;   j            go to a level (chapter.level, e.g. 2.1)
;;   U / C-/      undo: take back the last move of the level
;;   T            say the time the torch has left
;;   c            turn the clock off (or on again)
;;   N            start the game over (asks first)
;;   l            say the last announcement again
;;   v            choose among everything that can be done now
;;   w            let time pass (prefix N: N seconds)
;;   g            ask the engine for the whole screen again
;;   q            leave the game's window (the game goes on; M-x efb
;;                shows it again)
;;   Q            quit the game (leave it, when following a shared game)
;;   C            take control of a shared game, once nobody has it
;;   O            hand control of a shared game over: only follow it
;;
;; Sounds: with Emacspeak, the game's cues are auditory icons.  Without
;; it, the engine's own sound pack (the files `efb play --sound' plays)
;; is played through the player efb itself would pick (pw-play, paplay
;; or aplay; `efb-sound-player' names another), and each chapter's
;; ambience loops until the next (`efb-ambiences').
;;
;; Hints unlocking and the torch's time on timed levels arrive on
;; their own, between commands; they are spoken as they come.
;;
;; `efb-program' names the efb executable and `efb-program-args' the
;; options given to `efb pipe' (for example a seed and the virtual
;; clock).
;;
;; A shared game: `efb-attach' asks for the socket, by default the one
;; `efb serve' listens on when given no --socket
;; ($XDG_RUNTIME_DIR/escape-from-blindness/game.sock, else
;; /tmp/escape-from-blindness-UID/game.sock).  The header line shows
;; your part (controller or observer), and changes of part are said.
;; An observer moves nothing: its gestures are refused, and it is told
;; how to take control.  When nobody controls the game, simply playing
;; takes control, as in the console.  When the game ends or its server
;; goes away, it is said, and the buffer stays.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(defvar efb-mode-map)

(defgroup efb nil
  "Play Escape From Blindness, an audio escape room."
  :group 'games
  :prefix "efb-")

(defcustom efb-program "efb"
  "The efb executable: a file name, or a command on variable `exec-path'."
  :type 'string)

(defcustom efb-program-args nil
  "Options given to `efb pipe', such as (\"--locale\" \"fr\")."
  :type '(repeat string))

(defcustom efb-announce-function nil
  "Function called with each text to say, and whether it interrupts.
It takes two arguments: the text and a flag that is non-nil for an
assertive message.  nil means `dtk-speak' when Emacspeak is loaded,
else `message'."
  :type '(choice (const :tag "Emacspeak or the echo area" nil) function))

(defcustom efb-sound-function #'efb-default-sound
  "Function called with the name of each sound cue the game sends.
The default plays an Emacspeak auditory icon when Emacspeak is
loaded, and nothing otherwise."
  :type '(choice function (const :tag "None" ignore)))

(defcustom efb-ambience-function #'efb-default-ambience
  "Function called with the name of each chapter ambience to loop.
It is called with nil when the ambience stops.  The default loops
the engine's own recording through the sound player."
  :type '(choice function (const :tag "None" ignore)))

(defcustom efb-sound-player nil
  "How to play the game's sound files when Emacspeak is not loaded.
nil finds a player the way efb's --sound does: pw-play for PipeWire,
paplay for PulseAudio, else aplay.  A string is a shell command that
plays the WAV file given as its last argument.  The symbol `none'
plays nothing."
  :type '(choice (const :tag "pw-play, paplay or aplay" nil)
                 (string :tag "Shell command")
                 (const :tag "No sound" none)))

(defcustom efb-sound-directory nil
  "The engine's sound pack: a folder holding cues/ and ambiences/.
nil means the pack installed next to `efb-program'."
  :type '(choice (const :tag "Next to the efb program" nil) directory))

(defcustom efb-ambiences t
  "Non-nil means each chapter's ambience loops while it is played."
  :type 'boolean)

(defcustom efb-time-pressure t
  "Non-nil means timed levels are timed: the torch burns.
nil turns the clock off (the engine's timePressure): the torch waits.
\[efb-clock] changes it during a game."
  :type 'boolean)

(defcustom efb-timeout 10
  "Seconds to wait for the engine when a command waits for its reply."
  :type 'number)

(defcustom efb-speak-focus t
  "Non-nil means the newly focused element is said when focus moves."
  :type 'boolean)

(defface efb-focus '((t :inherit highlight :weight bold))
  "Face of the focused element's line.")

(defface efb-dimmed '((t :inherit shadow))
  "Face of an element that cannot be used now.")

(defconst efb-buffer-name "*efb*"
  "Name of the buffer that shows the game.")

(defconst efb-log-buffer-name "*efb log*"
  "Name of the buffer that keeps everything the game said.")

(defvar efb-event-hook nil
  "Hook run with each event the engine sends, once it was applied.
Each function is called in the game's buffer with the event, an alist
as returned by `json-parse-string' with symbol keys.")

;;; Buffer-local state

(defvar-local efb--process nil "The engine's process.")
(defvar-local efb--partial "" "Output read but not yet ended by a newline.")
(defvar-local efb--next-id 1 "The id of the next command.")
(defvar-local efb--settled 0 "The highest command id whose `done' arrived.")
(defvar-local efb--version nil "The protocol version spoken, as (MAJOR MINOR).")
(defvar-local efb--capabilities nil "The engine's capabilities.")
(defvar-local efb--screen nil "The last screen event.")
(defvar-local efb--elements nil "The screen's elements, kept current.")
(defvar-local efb--focus nil "The id of the focused element.")
(defvar-local efb--new-screen nil "Non-nil until the new screen's focus is said.")
(defvar-local efb--quiet nil
  "Ids of the commands whose screen and focus are shown but not said.
The state asked again after joining a shared game: it was said once.")
(defvar-local efb--progress nil "The last progress event.")
(defvar-local efb--chapter nil
  "The id of the chapter being played (protocol 1.2).
The chapterId of the last chapter page or level screen.")
(defvar-local efb--timer nil "The last timer event of a timed level.")
(defvar-local efb--timer-read-at nil "When `efb--timer' was read.")
(defvar-local efb--timer-waited 0
  "Milliseconds waited on the virtual clock since `efb--timer'.")
(defvar-local efb--ticker nil "Redraws the torch's time every second.")
(defvar-local efb--valid-actions nil "The last validActions event.")
(defvar-local efb--gen nil "The generation of the last event that had one.")
(defvar-local efb--utterances nil "Texts to say at the end of this burst.")
(defvar-local efb--assertive nil "Non-nil when a text to say interrupts.")
(defvar-local efb--announcements nil "Every announce event, newest first.")
(defvar-local efb--sounds nil "The names of the sounds played, newest first.")
(defvar-local efb--errors nil "The error events, newest first.")
(defvar-local efb--ended nil "The ended event, once the game ended.")
(defvar-local efb--finished nil "Non-nil once the engine said bye or exited.")
(defvar-local efb--filter-errors nil "Errors raised while handling output.")
(defvar-local efb--socket nil
  "The socket of the shared game joined, or nil for a game of our own.")
(defvar-local efb--role nil
  "Our part in a shared game: \"controller\", \"observer\" or nil.")
(defvar-local efb--control-free nil
  "Non-nil while nobody controls the shared game.")
(defvar-local efb--leaving nil "Non-nil once we asked to leave the game.")
(defvar-local efb--closed nil "Non-nil once the connection closed.")
(defvar-local efb--flush-timer nil
  "Says what was queued, should no burst end come to say it.")
(defvar-local efb--undo nil
  "Snapshots taken before the moves of the level, newest first.")
(defvar-local efb--undo-screen nil "The screen `efb--undo' belongs to.")
(defvar-local efb--undo-pending nil "Ids of snapshots asked for undo.")
(defvar-local efb--ambience nil "The name of the ambience looping.")
(defvar-local efb--ambience-process nil "The process playing it.")

(defconst efb--undo-limit 50 "The most moves of a level undo keeps.")

;;; Speaking

(defun efb--say-now (text assertive)
  "Say TEXT now; ASSERTIVE means it interrupts."
  (with-current-buffer (get-buffer-create efb-log-buffer-name)
    (let ((inhibit-read-only t))
      (goto-char (point-max))
      (insert text "\n")))
  (cond (efb-announce-function (funcall efb-announce-function text assertive))
        ((fboundp 'dtk-speak)
         (when (and assertive (fboundp 'dtk-stop)) (funcall 'dtk-stop))
         (funcall 'dtk-speak text))
        (t (message "%s" text))))

(defun efb--say (text &optional assertive)
  "Queue TEXT to be said at the end of the current burst of events.
ASSERTIVE means it interrupts whatever is being said."
  (when (and text (not (string-empty-p text)))
    (push text efb--utterances)
    (when assertive (setq efb--assertive t))))

(defun efb--flush ()
  "Say what was queued, as one utterance."
  (when efb--utterances
    (let ((text (string-join (reverse efb--utterances) " "))
          (assertive efb--assertive))
      (setq efb--utterances nil efb--assertive nil)
      (efb--say-now text assertive))))

(defconst efb--icons
  '(("boundary" . warn-user) ("solved" . task-done) ("wrong" . error)
    ("hint" . help) ("chapter" . open-object) ("escaped" . window-resize)
    ("locked" . warn-user) ("dial" . select-object)
    ("torch-countdown" . alarm) ("torch-last-minute" . alarm)
    ("torch-out" . close-object) ("assistive-lost" . close-object)
    ("assistive-back" . open-object))
  "Emacspeak auditory icons for the game's sound cues.")

(defun efb-default-sound (name)
  "Play the sound cue NAME.
As an Emacspeak auditory icon when Emacspeak is loaded, else the
engine's own recording through the sound player."
  (if (fboundp 'emacspeak-auditory-icon)
      (let ((icon (cdr (assoc name efb--icons))))
        (when icon (funcall 'emacspeak-auditory-icon icon)))
    (let ((file (efb--sound-file "cues" name)))
      (when file (efb--play-file file)))))

(defun efb--sound-directory ()
  "The folder of the engine's sound pack, or nil."
  (if efb-sound-directory
      (and (file-directory-p efb-sound-directory) efb-sound-directory)
    (let ((program (efb--program)))
      (when program
        (let ((bin (file-name-directory (file-truename program))))
          (seq-find #'file-directory-p
                    (list (expand-file-name
                           "EscapeFromBlindness_EscapeSound.resources/Sounds" bin)
                          (expand-file-name
                           "../share/escape-from-blindness/Sounds" bin))))))))

(defun efb--sound-file (kind name)
  "The WAV file of the cue or ambience NAME (KIND is cues or ambiences)."
  (let ((folder (efb--sound-directory)))
    (when (and folder (stringp name) (string-match-p "\\`[a-z0-9-]+\\'" name))
      (let ((file (expand-file-name (format "%s/%s.wav" kind name) folder)))
        (and (file-readable-p file) file)))))

(defun efb--player-command (file)
  "The command line that plays FILE, or nil when there is no player."
  (cond ((eq efb-sound-player 'none) nil)
        ((stringp efb-sound-player)
         (list shell-file-name shell-command-switch
               (concat "exec " efb-sound-player " "
                       (shell-quote-argument file))))
        (t
         (let* ((runtime (getenv "XDG_RUNTIME_DIR"))
                (pipewire (or (getenv "PIPEWIRE_REMOTE")
                              (and runtime (file-exists-p
                                            (expand-file-name "pipewire-0" runtime)))))
                (pulse (or (getenv "PULSE_SERVER")
                           (and runtime (file-exists-p
                                         (expand-file-name "pulse/native" runtime))))))
           (cond ((and pipewire (executable-find "pw-play"))
                  (list (executable-find "pw-play") file))
                 ((and pulse (executable-find "paplay"))
                  (list (executable-find "paplay") file))
                 ((executable-find "aplay")
                  (list (executable-find "aplay") "-q" file))
                 ((executable-find "pw-play")
                  (list (executable-find "pw-play") file))
                 ((executable-find "paplay")
                  (list (executable-find "paplay") file)))))))

(defun efb--play-file (file &optional sentinel)
  "Play FILE without waiting; return the player's process, or nil.
SENTINEL, if given, is the process's sentinel."
  (let ((command (efb--player-command file)))
    (when command
      (make-process :name "efb-sound" :command command :noquery t
                    :connection-type 'pipe :buffer nil
                    :stderr (get-buffer-create " *efb sound*")
                    :sentinel (or sentinel #'ignore)))))

(defun efb-default-ambience (name)
  "Loop the ambience NAME through the sound player; nil stops it."
  (let ((buffer (current-buffer)))
    (efb--stop-ambience)
    (when (and name efb-ambiences)
      (let ((file (efb--sound-file "ambiences" name)))
        (when file
          (setq efb--ambience name)
          (cl-labels ((loop-again (process _change)
                        (when (and (not (process-live-p process))
                                   (buffer-live-p buffer))
                          (with-current-buffer buffer
                            (when (and (eq process efb--ambience-process)
                                       (equal efb--ambience name))
                              (setq efb--ambience-process
                                    (efb--play-file file #'loop-again)))))))
            (setq efb--ambience-process (efb--play-file file #'loop-again))))))))

(defun efb--stop-ambience ()
  "Stop the ambience looping, if any."
  (let ((process efb--ambience-process))
    (setq efb--ambience nil efb--ambience-process nil)
    (when (and process (process-live-p process))
      (delete-process process))))

;;; Talking to the engine

(defun efb--live-p ()
  "Non-nil when the game's engine is running."
  (and efb--process (process-live-p efb--process) (not efb--finished)))

(defconst efb--session-commands
  '("hello" "ping" "state" "validActions" "snapshot" "quit" "repeat")
  "Commands that play nothing: they never take control of a shared game.")

(defconst efb--moves
  '("activate" "input" "rotor" "rotorItem" "action" "adjust" "magicTap")
  "The gestures of a level that undo can take back.")

(defun efb--send (command)
  "Send COMMAND, an alist, to the engine; return its id.
In a shared game that nobody controls, a gesture takes control first,
as the console does.  On a level, a move is preceded by a snapshot,
for `efb-undo'."
  (unless (efb--live-p)
    (if efb--socket
        (user-error "Not connected to the game: M-x efb-attach joins it")
      (user-error "The game is not running: M-x efb starts it")))
  (let ((type (alist-get 'type command)))
    (when (and efb--socket (efb--observer-p) efb--control-free
               (not (member type efb--session-commands)))
      (efb--send-line (efb--hello-command "controller")))
    (when (and (member type efb--moves)
               (equal (efb--get efb--screen 'kind) "level")
               (not (efb--observer-p)))
      (push (efb--send-line '((type . "snapshot"))) efb--undo-pending)))
  (efb--send-line command))

(defun efb--send-line (command)
  "Write COMMAND, an alist, to the engine with the next id; return it."
  (let ((id efb--next-id))
    (setq efb--next-id (1+ id))
    (process-send-string
     efb--process
     (concat (json-serialize (cons (cons 'id id) command)) "\n"))
    id))

(defun efb--wait-for (id &optional timeout)
  "Wait until the command ID is settled, at most TIMEOUT seconds.
Return non-nil when it was."
  (let ((deadline (+ (float-time) (or timeout efb-timeout)))
        (buffer (current-buffer)))
    (while (and (< (buffer-local-value 'efb--settled buffer) id)
                (buffer-local-value 'efb--process buffer)
                (process-live-p (buffer-local-value 'efb--process buffer))
                (< (float-time) deadline))
      (accept-process-output (buffer-local-value 'efb--process buffer) 0.05))
    (>= (buffer-local-value 'efb--settled buffer) id)))

(defun efb-sync (&optional timeout)
  "Wait until the engine has answered every command sent.
Give up after TIMEOUT seconds (default `efb-timeout').  Return
non-nil when everything was answered."
  (efb--wait-for (efb--send '((type . "ping"))) timeout))

(defun efb--filter (process output)
  "Handle OUTPUT of the engine PROCESS, one event per line."
  (let ((buffer (process-buffer process)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (let ((text (concat efb--partial output))
              (start 0)
              end)
          (while (setq end (string-search "\n" text start))
            (let ((line (substring text start end)))
              (setq start (1+ end))
              (unless (string-blank-p line)
                (condition-case err
                    (efb--handle-event
                     (json-parse-string line :object-type 'alist
                                        :array-type 'list
                                        :null-object nil :false-object nil))
                  (error (push (list err line) efb--filter-errors)
                         (message "efb: cannot handle %S: %s"
                                  line (error-message-string err)))))))
          (setq efb--partial (substring text start)))))))

(defun efb--sentinel (process _change)
  "Note that the engine PROCESS ended, or the connection to it closed."
  (let ((buffer (process-buffer process)))
    (when (and (buffer-live-p buffer) (not (process-live-p process))
               (eq process (buffer-local-value 'efb--process buffer)))
      (with-current-buffer buffer
        (efb--flush)
        (cond ((eq (process-type process) 'network)
               (unless efb--closed
                 (setq efb--closed t)
                 (efb--say-now (efb--closing-words) t)))
              ((not efb--finished)
               (efb--say-now (format "The game's engine stopped (status %d)."
                                     (process-exit-status process))
                             t)))
        (setq efb--finished t)
        (efb--stop-ambience)
        (efb--render)))))

(defun efb--closing-words ()
  "What to say when the connection to a shared game closes."
  (cond (efb--leaving
         "You left the game; it goes on without you.")
        ((or efb--ended efb--finished)
         "The game is over, and the connection to it closed.")
        (t
         "The connection to the game closed: its server is gone.")))

;;; Events

(defun efb--get (alist key)
  "The value of KEY in the event or element ALIST."
  (alist-get key alist))

(defun efb--element (id)
  "The element ID of the screen on show, or nil."
  (seq-find (lambda (element) (equal (efb--get element 'id) id))
            efb--elements))

(defun efb--replace-element (element)
  "Put ELEMENT in place of the element with its id."
  (let ((id (efb--get element 'id)))
    (setq efb--elements
          (mapcar (lambda (old) (if (equal (efb--get old 'id) id) element old))
                  efb--elements))))

(defun efb--describe (element)
  "Return the words a screen reader would use for ELEMENT."
  (let* ((traits (efb--get element 'traits))
         (roles (delq nil
                      (list (and (member "header" traits) "heading")
                            (and (member "button" traits) "button")
                            (and (member "textField" traits) "text field")
                            (and (member "adjustable" traits) "adjustable")
                            (and (member "selected" traits) "selected")
                            (and (member "notEnabled" traits) "dimmed")
                            (and (efb--get element 'rotors) "rotors")
                            (and (efb--get element 'actions)
                                 "actions available"))))
         (value (efb--get element 'value)))
    (string-join (delq nil (append (list (efb--get element 'label))
                                   roles
                                   (and value (not (string-empty-p value))
                                        (list value))))
                 ", ")))

;;; Sharing a game

(defun efb--key (command)
  "The key of COMMAND in `efb-mode', as text."
  (substring-no-properties
   (substitute-command-keys (format "\\<efb-mode-map>\\[%s]" command))))

(defun efb--observer-p ()
  "Non-nil when we only follow a shared game."
  (equal efb--role "observer"))

(defun efb--read-only-words ()
  "What to say when a gesture of an observer is refused."
  (if efb--control-free
      (format (concat "You are only following the game, so you cannot do"
                      " that. Nobody controls it now: press %s to take"
                      " control.")
              (efb--key 'efb-take-control))
    (format (concat "You are only following the game: another player"
                    " controls it, so you cannot do that. Press %s to"
                    " take control once they hand it over.")
            (efb--key 'efb-take-control))))

(defun efb--set-role (event)
  "Apply the role EVENT, and say what changed."
  (let ((role (efb--get event 'role))
        (free (and (efb--get event 'controlFree) t))
        (old-role efb--role)
        (old-free efb--control-free))
    (setq efb--role role efb--control-free free)
    (cond ((and (equal role "controller") (not (equal old-role role)))
           (efb--say "You control the game." t))
          ((and (equal role "observer") (not (equal old-role role)))
           (efb--say (if free
                         (format (concat "You follow the game; nobody"
                                         " controls it: press %s to take"
                                         " control.")
                                 (efb--key 'efb-take-control))
                       "You follow the game; another player controls it.")
                     t))
          ((and (equal role "observer") free (not old-free))
           (efb--say (format (concat "Nobody controls the game now: press %s"
                                     " to take control.")
                             (efb--key 'efb-take-control))
                     t))
          ((and (equal role "observer") (not free) old-free)
           (efb--say "Another player controls the game now." t)))
    (efb--update-header)
    ;; A role event sent as another player leaves or takes control
    ;; ends no burst, and no idle follows it: say it soon regardless.
    (efb--flush-soon)))

(defun efb--flush-soon ()
  "Say what was queued in a moment, unless a burst's end says it first."
  (unless (timerp efb--flush-timer)
    (let ((buffer (current-buffer)))
      (setq efb--flush-timer
            (run-at-time 0.1 nil
                         (lambda ()
                           (when (buffer-live-p buffer)
                             (with-current-buffer buffer
                               (setq efb--flush-timer nil)
                               (efb--flush)))))))))

(defun efb--handle-event (event)
  "Apply EVENT, an alist, to the game's state, the buffer and speech."
  (let ((type (efb--get event 'type))
        (reply-to (efb--get event 'replyTo)))
    (when (integerp (efb--get event 'gen))
      (setq efb--gen (efb--get event 'gen)))
    (pcase type
      ("hello"
       (setq efb--capabilities (efb--get event 'capabilities)
             efb--version (or (efb--get event 'version)
                              (list (efb--get event 'protocol) 0))))
      ("screen"
       (when (efb--get event 'chapterId)
         (setq efb--chapter (efb--get event 'chapterId)))
       (setq efb--screen event
             efb--elements (efb--get event 'elements)
             efb--new-screen t)
       (unless (member (efb--get event 'kind) '("menu" "assistive"))
         (unless (equal (efb--get event 'screen) efb--undo-screen)
           (setq efb--undo nil
                 efb--undo-screen (efb--get event 'screen)))
         (setq efb--timer nil)
         (efb--stop-ticker))
       (efb--render))
      ("focus"
       (let* ((element (efb--get event 'element))
              (id (efb--get element 'id))
              (moved (or efb--new-screen (not (equal id efb--focus)))))
         (efb--replace-element element)
         (setq efb--focus id)
         (when (and moved efb-speak-focus (not (memq reply-to efb--quiet)))
           (when (and efb--new-screen
                      (not (equal (efb--get element 'label)
                                  (efb--get efb--screen 'title))))
             (efb--say (efb--get efb--screen 'title)))
           (efb--say (efb--describe element)))
         (setq efb--new-screen nil)
         (efb--render)))
      ("elementChanged"
       (efb--replace-element (efb--get event 'element))
       (efb--render))
      ("announce"
       (push event efb--announcements)
       (efb--say (efb--get event 'text)
                 (equal (efb--get event 'priority) "assertive")))
      ("role" (efb--set-role event))
      ("error"
       (push event efb--errors)
       (pcase (efb--get event 'code)
         ;; A stale command met a screen that changed under it: a key
         ;; pressed twice.  Nothing happened, and nothing need be said.
         ("stale" nil)
         ;; The engine's words speak of the protocol: say it plainly.
         ("read_only" (efb--say (efb--read-only-words) t))
         ("controlled"
          (efb--say (concat "Another player controls the game: you can"
                            " take control once they hand it over or"
                            " leave it.")
                    t))
         (_ (efb--say (efb--get event 'message) t))))
      ("sound"
       (push (efb--get event 'name) efb--sounds)
       (if (equal (efb--get event 'name) "ambient")
           (when efb-ambience-function
             (funcall efb-ambience-function (efb--get event 'loop)))
         (when efb-sound-function
           (funcall efb-sound-function (efb--get event 'name)))))
      ("snapshot"
       (when (memq reply-to efb--undo-pending)
         (setq efb--undo-pending (delq reply-to efb--undo-pending))
         (push (efb--get event 'blob) efb--undo)
         (when (> (length efb--undo) efb--undo-limit)
           (setcdr (nthcdr (1- efb--undo-limit) efb--undo) nil))))
      ("progress" (setq efb--progress event) (efb--update-header))
      ("timer"
       (setq efb--timer event efb--timer-read-at (float-time)
             efb--timer-waited 0)
       (efb--start-ticker)
       (efb--update-header))
      ("validActions" (setq efb--valid-actions event))
      ("ended" (setq efb--ended event))
      ("done"
       (setq efb--quiet (delq reply-to efb--quiet))
       (when (and (integerp reply-to) (> reply-to efb--settled))
         (setq efb--settled reply-to))
       (efb--flush))
      ("idle" (efb--flush))
      ("bye" (setq efb--finished t) (efb--stop-ambience) (efb--flush)
       (efb--render)))
    ;; Protocol 1.0 has no idle: say what comes on its own at once.
    (when (and (null reply-to) (not (member type '("done" "idle")))
               (not (efb--speaks-p '(1 1)))
               (not (equal type "hello")))
      (efb--flush))
    (run-hook-with-args 'efb-event-hook event)))

;;; Showing the screen

(defun efb--line (element focused)
  "The buffer line of ELEMENT; FOCUSED means it has the focus."
  (let* ((traits (efb--get element 'traits))
         (value (efb--get element 'value))
         (tags (delq nil
                     (list (and (member "button" traits) "button")
                           (and (member "textField" traits) "text field")
                           (and (member "adjustable" traits) "adjustable")
                           (and (member "selected" traits) "selected")
                           (and (member "notEnabled" traits) "dimmed"))))
         (rotors (efb--get element 'rotors))
         (actions (efb--get element 'actions))
         (text (concat (if focused "> " "  ")
                       (efb--get element 'label)
                       (if (and value (not (string-empty-p value)))
                           (concat ": " value)
                         "")
                       (if tags (format " [%s]" (string-join tags ", ")) "")
                       (if rotors
                           (format " (rotors: %s)" (string-join rotors ", "))
                         "")
                       (if actions
                           (format " (actions: %s)" (string-join actions ", "))
                         ""))))
    (propertize text
                'efb-element (efb--get element 'id)
                'face (cond (focused 'efb-focus)
                            ((member "notEnabled" traits) 'efb-dimmed)
                            ((member "header" traits) 'bold)))))

(defun efb--render ()
  "Show the screen on show, the focus marked and at point."
  (let ((inhibit-read-only t)
        (focus-position nil))
    (erase-buffer)
    (dolist (element efb--elements)
      (let ((focused (equal (efb--get element 'id) efb--focus)))
        (when focused (setq focus-position (point)))
        (insert (efb--line element focused) "\n")))
    (when efb--finished
      (insert (cond ((not efb--socket)
                     "\n[The game has ended.  M-x efb starts a new one.]\n")
                    (efb--leaving
                     "\n[You left the game.  M-x efb-attach joins it again.]\n")
                    (efb--ended
                     "\n[The game has ended; the connection closed.]\n")
                    (t
                     (concat "\n[The connection to the game closed."
                             "  M-x efb-attach joins a game.]\n")))))
    (set-buffer-modified-p nil)
    (goto-char (or focus-position (point-min)))
    (dolist (window (get-buffer-window-list (current-buffer) nil t))
      (set-window-point window (point))))
  (efb--update-header))

(defun efb--speaks-p (version)
  "Non-nil when the protocol version spoken is VERSION, (MAJOR MINOR), or newer."
  (and efb--version (version-list-<= version efb--version)))

(defun efb--chapter-progress ()
  "The chapter being played and its solved levels, as \"cellar 1/4\", or nil.
Protocol 1.2 names a level's chapter and counts each chapter's levels;
before it nothing says which chapter a level is in, so nothing is shown."
  (when-let* ((chapter efb--chapter)
              (entry (seq-find (lambda (item) (equal (efb--get item 'id) chapter))
                               (efb--get efb--progress 'chapters))))
    (format "%s %d/%d" chapter (efb--get entry 'completed) (efb--get entry 'total))))

(defun efb--update-header ()
  "Show the screen's title, progress and torch in the header line."
  (setq header-line-format
        (string-join
         (delq nil
               (list (pcase efb--role
                       ("controller" "controller")
                       ("observer" (if efb--control-free
                                       "observer, control free"
                                     "observer")))
                     (efb--get efb--screen 'title)
                     (efb--chapter-progress)
                     (when efb--progress
                       (format "%d/%d solved"
                               (length (efb--get efb--progress 'completed))
                               (or (efb--get efb--progress 'total) 0)))
                     (when efb--timer
                       (format "torch %d s%s"
                               (/ (efb--remaining-ms) 1000)
                               (if (efb--get efb--timer 'paused)
                                   " (paused)"
                                 "")))))
         " | "))
  (force-mode-line-update))

(defun efb--clock-runs-p ()
  "Non-nil when the torch of a timed level burns on the real clock."
  (and efb--timer
       (not (efb--get efb--timer 'paused))
       (not (member "virtualClock" efb--capabilities))))

(defun efb--remaining-ms ()
  "The torch's time left now, in milliseconds."
  (let ((remaining (or (efb--get efb--timer 'remainingMs) 0)))
    (cond ((efb--get efb--timer 'paused) remaining)
          ((efb--clock-runs-p)
           (max 0 (- remaining
                     (round (* 1000 (- (float-time) efb--timer-read-at))))))
          (t (max 0 (- remaining efb--timer-waited))))))

(defun efb--start-ticker ()
  "Redraw the torch's time every second while it burns."
  (efb--stop-ticker)
  (when (efb--clock-runs-p)
    (let ((buffer (current-buffer))
          (ticker nil))
      (setq ticker
            (run-at-time 1 1 (lambda ()
                               (if (and (buffer-live-p buffer)
                                        (with-current-buffer buffer
                                          (efb--clock-runs-p)))
                                   (with-current-buffer buffer
                                     (efb--update-header))
                                 (cancel-timer ticker)))))
      (setq efb--ticker ticker))))

(defun efb--stop-ticker ()
  "Stop redrawing the torch's time."
  (when (timerp efb--ticker)
    (cancel-timer efb--ticker))
  (setq efb--ticker nil))

;;; Commands

(defun efb--buffer ()
  "The game's buffer; it must exist."
  (or (and (derived-mode-p 'efb-mode) (current-buffer))
      (get-buffer efb-buffer-name)
      (user-error "No game: M-x efb starts one, M-x efb-attach joins one")))

(defmacro efb--in-game (&rest body)
  "Run BODY in the game's buffer."
  (declare (indent 0) (debug t))
  `(with-current-buffer (efb--buffer) ,@body))

(defun efb--element-at-point ()
  "The id of the element on the line at point, or the focused one."
  (or (get-text-property (line-beginning-position) 'efb-element)
      efb--focus))

(defun efb--in-flight-p ()
  "Non-nil while a command sent is still unanswered."
  (< efb--settled (1- efb--next-id)))

;; While a command is unanswered (keys typed ahead), the buffer shows a
;; screen and focus that are about to change: the next gesture then acts
;; on the engine's focus, as the keys typed so far left it.  Otherwise
;; it acts on the line at point, and is refused if the screen changed.

(defun efb--aimed (command)
  "COMMAND aimed at the element at point, unless keys were typed ahead."
  (let ((id (and (not (efb--in-flight-p)) (efb--element-at-point))))
    (if id (append command (list (cons 'element id))) command)))

(defun efb--guarded (command)
  "COMMAND refused by the engine if the screen changed meanwhile."
  (if (and efb--gen (not (efb--in-flight-p)))
      (append command (list (cons 'ifGen efb--gen)))
    command))

(defun efb-next ()
  "Move the focus to the next element."
  (interactive)
  (efb--in-game (efb--send '((type . "next")))))

(defun efb-previous ()
  "Move the focus to the previous element."
  (interactive)
  (efb--in-game (efb--send '((type . "previous")))))

(defun efb-first ()
  "Move the focus to the first element."
  (interactive)
  (efb--in-game (efb--send '((type . "first")))))

(defun efb-last ()
  "Move the focus to the last element."
  (interactive)
  (efb--in-game (efb--send '((type . "last")))))

(defun efb--text-field-p (id)
  "Non-nil when the element ID is a text field."
  (member "textField" (efb--get (efb--element id) 'traits)))

(defun efb-activate ()
  "Activate the element at point.
On a text field, read an answer in the minibuffer and submit it."
  (interactive)
  (efb--in-game
    (let ((id (efb--element-at-point)))
      (if (and id (efb--text-field-p id))
          (efb-type-answer (efb--read-answer id) id)
        (efb--send (efb--guarded (efb--aimed '((type . "activate")))))))))

(defun efb--read-answer (id)
  "Read an answer for the text field ID in the minibuffer."
  (let ((element (efb--element id)))
    (read-string (format "%s: " (or (efb--get element 'label) "Answer"))
                 nil nil (efb--get element 'value))))

(defun efb--text-field ()
  "The id of the text field to type into: at point, else the first."
  (let ((id (efb--element-at-point)))
    (if (and id (efb--text-field-p id))
        id
      (efb--get (seq-find (lambda (element)
                            (member "textField" (efb--get element 'traits)))
                          efb--elements)
                'id))))

(defun efb-type-answer (text &optional field)
  "Type TEXT into the text FIELD (an element id) and submit it.
FIELD defaults to the text field at point, or the screen's first."
  (interactive
   (efb--in-game
     (let ((id (or (efb--text-field)
                   (user-error "There is no text field here"))))
       (list (efb--read-answer id) id))))
  (efb--in-game
    (let ((id (or field (efb--text-field)
                  (user-error "There is no text field here"))))
      (efb--send (efb--guarded `((type . "input") (element . ,id)
                                 (text . ,text))))
      (efb--send `((type . "activate") (element . ,id))))))

(defun efb-rotor-next ()
  "Switch to the next rotor of the element at point."
  (interactive)
  (efb--in-game (efb--send (efb--aimed '((type . "rotor")
                                         (direction . "next"))))))

(defun efb-rotor-previous ()
  "Switch to the previous rotor of the element at point."
  (interactive)
  (efb--in-game (efb--send (efb--aimed '((type . "rotor")
                                         (direction . "previous"))))))

(defun efb-rotor-item-next ()
  "Step to the next item of the current rotor."
  (interactive)
  (efb--in-game (efb--send (efb--aimed '((type . "rotorItem")
                                         (direction . "next"))))))

(defun efb-rotor-item-previous ()
  "Step to the previous item of the current rotor."
  (interactive)
  (efb--in-game (efb--send (efb--aimed '((type . "rotorItem")
                                         (direction . "previous"))))))

(defun efb-action (name)
  "Perform the custom action NAME of the element at point.
Interactively, choose it in the minibuffer; a numeric prefix argument
N chooses the Nth action."
  (interactive
   (efb--in-game
     (let* ((id (efb--element-at-point))
            (actions (efb--get (efb--element id) 'actions)))
       (unless actions
         (efb--say-now "No actions here." nil)
         (user-error "No actions here"))
       (list (if (and current-prefix-arg
                      (<= 1 (prefix-numeric-value current-prefix-arg)
                          (length actions)))
                 (nth (1- (prefix-numeric-value current-prefix-arg)) actions)
               (completing-read "Action: " actions nil t))))))
  (efb--in-game (efb--send (efb--aimed `((type . "action") (name . ,name))))))

(defun efb-increment ()
  "Turn the dial at point one step up."
  (interactive)
  (efb--in-game (efb--send (efb--aimed '((type . "adjust")
                                         (direction . "increment"))))))

(defun efb-decrement ()
  "Turn the dial at point one step down."
  (interactive)
  (efb--in-game (efb--send (efb--aimed '((type . "adjust")
                                         (direction . "decrement"))))))

(defun efb-magic-tap ()
  "Do the screen's main action."
  (interactive)
  (efb--in-game (efb--send (efb--guarded '((type . "magicTap"))))))

(defun efb-escape ()
  "Back out: skip the introduction, open or close the level menu."
  (interactive)
  (efb--in-game (efb--send (efb--guarded '((type . "escape"))))))

(defun efb-hint ()
  "Hear the next hint of the level."
  (interactive)
  (efb--in-game (efb--send '((type . "hint")))))

(defun efb-menu ()
  "Open the level menu."
  (interactive)
  (efb--in-game (efb--send '((type . "menu")))))

(defun efb-repeat ()
  "Say the last announcement again."
  (interactive)
  (efb--in-game (efb--send '((type . "repeat")))))

(defun efb-wait (seconds)
  "Let SECONDS pass (30 by default, or the numeric prefix argument).
Useful on the virtual clock, where time moves only with this command."
  (interactive (list (if current-prefix-arg
                         (prefix-numeric-value current-prefix-arg)
                       30)))
  (efb--in-game
    (let ((ms (round (* 1000 seconds))))
      (efb--send `((type . "wait") (ms . ,ms)))
      ;; The virtual clock moves only now: count it for the torch (an
      ;; observer's wait is refused, and moves nothing).
      (when (and efb--timer (not (efb--get efb--timer 'paused))
                 (not (efb--observer-p)))
        (setq efb--timer-waited (+ efb--timer-waited ms))
        (efb--update-header)))))

(defun efb-refresh (&rest _ignored)
  "Ask the engine for the whole screen again."
  (interactive)
  (efb--in-game (efb--send '((type . "state")))))

(defconst efb--gesture-commands
  '(("magicTap" . efb-magic-tap) ("escape" . efb-escape) ("hint" . efb-hint)
    ("activate" . efb-activate) ("input" . efb-type-answer)
    ("adjust" . efb-increment) ("action" . efb-action)
    ("rotor" . efb-rotor-next) ("rotorItem" . efb-rotor-item-next))
  "The command of `efb-mode' that does each gesture.")

(defun efb--action-choices ()
  "The valid actions as an alist of distinct names to actions.
Actions that share a label (a magic tap that hears a hint, and the
hint gesture) are told apart by the key that does each."
  (let* ((actions (efb--get efb--valid-actions 'actions))
         (counts (make-hash-table :test #'equal))
         (taken (make-hash-table :test #'equal))
         choices)
    (dolist (action actions)
      (puthash (efb--get action 'label)
               (1+ (gethash (efb--get action 'label) counts 0)) counts))
    (dolist (action actions)
      (let* ((label (efb--get action 'label))
             (type (efb--get (efb--get action 'command) 'type))
             (command (cdr (assoc type efb--gesture-commands)))
             (name (if (> (gethash label counts) 1)
                       (format "%s (%s)" label
                               (if command (efb--key command) type))
                     label)))
        (while (gethash name taken)
          (setq name (concat name "'")))
        (puthash name t taken)
        (push (cons name action) choices)))
    (nreverse choices)))

(defun efb-valid-action (label)
  "Do the valid action called LABEL; interactively, choose it."
  (interactive
   (efb--in-game
     (unless (and efb--valid-actions
                  (equal (efb--get efb--valid-actions 'gen) efb--gen))
       (efb--wait-for (efb--send '((type . "validActions")))))
     (list (completing-read "Do: " (efb--action-choices) nil t))))
  (efb--in-game
    (let* ((action (or (cdr (assoc label (efb--action-choices)))
                       (user-error "No such action: %s" label)))
           (command (copy-alist (efb--get action 'command))))
      (when (efb--get action 'needsText)
        (setf (alist-get 'text command)
              (efb--read-answer (efb--get action 'element))))
      (efb--send (efb--guarded command)))))

(defun efb--hello-command (&optional role)
  "Our hello, asking for ROLE in a shared game if given."
  `((type . "hello")
    (protocol . ((min . [1 0]) (max . [1 2])))
    (client . "efb.el")
    (keys . ,(efb--key-names))
    (want . ["validActions"])
    (timePressure . ,(if efb-time-pressure t :false))
    ,@(and role `((role . ,role)))))

(defun efb--hello (&optional role)
  "Send our hello, asking for ROLE in a shared game if given; return its id."
  (efb--send (efb--hello-command role)))

(defun efb--duration-words (seconds)
  "SECONDS as words: \"1 minute 5 seconds\"."
  (let ((minutes (/ seconds 60))
        (rest (% seconds 60)))
    (string-join
     (delq nil
           (list (and (> minutes 0)
                      (format "%d minute%s" minutes (if (= minutes 1) "" "s")))
                 (and (or (> rest 0) (= minutes 0))
                      (format "%d second%s" rest (if (= rest 1) "" "s")))))
     " ")))

(defun efb-time-left ()
  "Say how long the torch of this timed level has left."
  (interactive)
  (efb--in-game
    (efb--say-now
     (cond (efb--timer
            (format "%s of torch left%s."
                    (efb--duration-words (ceiling (efb--remaining-ms) 1000.0))
                    (if (efb--get efb--timer 'paused) ", paused" "")))
           ((not efb-time-pressure)
            "The clock is off: no torch burns.")
           (t "No torch burns on this level."))
     nil)))

(defun efb-clock ()
  "Turn the clock off, or on again.
Off, the torch of a timed level waits for you (at once, on the level
being played); on, timed levels are timed again from the next one."
  (interactive)
  (efb--in-game
    (setq efb-time-pressure (not efb-time-pressure))
    (efb--hello)
    (efb--say-now (if efb-time-pressure
                      "The clock is on: timed levels are timed again from the next one."
                    "The clock is off: the torch waits for you.")
                  nil)))

(defun efb-replay (&optional force)
  "Start the game over, clearing all progress; ask first unless FORCE."
  (interactive "P")
  (efb--in-game
    (when (or force
              (y-or-n-p "Start the game over? All your progress will be cleared. "))
      (setq efb--undo nil)
      (efb--send '((type . "replay"))))))

(defun efb-goto-level (chapter level)
  "Go to LEVEL of CHAPTER (numbers from 1), if it is unlocked.
Interactively, read them as \"chapter.level\", such as 2.1."
  (interactive
   (let ((text (read-string "Go to level (chapter.level, such as 2.1): ")))
     (if (string-match "\\`[[:space:]]*\\([0-9]+\\)[.:, ]+\\([0-9]+\\)[[:space:]]*\\'" text)
         (list (string-to-number (match-string 1 text))
               (string-to-number (match-string 2 text)))
       (user-error "Give the level as chapter.level, such as 2.1"))))
  (efb--in-game
    (setq efb--undo nil)
    (efb--send `((type . "goto") (chapter . ,chapter) (level . ,level)))))

(defun efb-undo ()
  "Take back the last move of the level being played."
  (interactive)
  (efb--in-game
    (efb-sync)
    (if (not (and efb--undo
                  (equal (efb--get efb--screen 'screen) efb--undo-screen)))
        (efb--say-now "Nothing to take back on this level." nil)
      (let ((blob (pop efb--undo)))
        (efb--send `((type . "restore") (blob . ,blob)))
        (efb--say "Move taken back.")
        (efb--send '((type . "state")))))))

(defun efb-take-control ()
  "Take control of the shared game, once nobody else has it."
  (interactive)
  (efb--in-game
    (cond ((not efb--socket)
           (efb--say-now "This game is yours alone: you control it." nil))
          ((equal efb--role "controller")
           (efb--say-now "You already control the game." nil))
          (t (efb--hello "controller")))))

(defun efb-hand-over ()
  "Give control of the shared game up, and only follow it."
  (interactive)
  (efb--in-game
    (cond ((not efb--socket)
           (efb--say-now "This game is yours alone: nobody can take it over."
                         nil))
          ((efb--observer-p)
           (efb--say-now "You already only follow the game." nil))
          (t (efb--hello "observer")))))

(defun efb-quit (&optional force)
  "Quit the game; ask first unless FORCE (a prefix argument) is given.
Following a shared game, leave it: it goes on for the others.
Controlling one, quitting ends it for everyone."
  (interactive "P")
  (efb--in-game
    (when (and (efb--live-p)
               (or force
                   (y-or-n-p (cond ((efb--observer-p)
                                    "Leave the game (it goes on)? ")
                                   (efb--socket
                                    "Quit the game for every player? ")
                                   (t "Quit the game? ")))))
      (when (efb--observer-p) (setq efb--leaving t))
      (efb--wait-for (efb--send '((type . "quit"))) 3)
      (let ((deadline (+ (float-time) 3)))
        ;; Until bye is read, or the sentinel saw the engine exit.
        (while (and (not efb--finished) (< (float-time) deadline))
          (accept-process-output efb--process 0.05)))
      (when (process-live-p efb--process)
        (delete-process efb--process)))))

(defun efb--key-names ()
  "The player's keys, by gesture, for the engine's chapter pages."
  (let (keys)
    (dolist (entry '((next . efb-next) (previous . efb-previous)
                     (activate . efb-activate) (rotor . efb-rotor-next)
                     (rotorItem . efb-rotor-item-next) (action . efb-action)
                     (adjust . efb-increment) (magicTap . efb-magic-tap)
                     (hint . efb-hint) (menu . efb-menu)))
      (let ((key (where-is-internal (cdr entry) efb-mode-map t)))
        (when key
          (push (cons (car entry) (key-description key)) keys))))
    (nreverse keys)))

;;; The mode

(defvar efb-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "n") #'efb-next)
    (define-key map (kbd "p") #'efb-previous)
    (define-key map (kbd "<") #'efb-first)
    (define-key map (kbd ">") #'efb-last)
    (define-key map (kbd "RET") #'efb-activate)
    (define-key map (kbd "t") #'efb-type-answer)
    (define-key map (kbd "r") #'efb-rotor-next)
    (define-key map (kbd "R") #'efb-rotor-previous)
    (define-key map (kbd "d") #'efb-rotor-item-next)
    (define-key map (kbd "u") #'efb-rotor-item-previous)
    (define-key map (kbd "a") #'efb-action)
    (define-key map (kbd "+") #'efb-increment)
    (define-key map (kbd "=") #'efb-increment)
    (define-key map (kbd "-") #'efb-decrement)
    (define-key map (kbd "SPC") #'efb-magic-tap)
    (define-key map (kbd "q") #'quit-window)
    (define-key map (kbd "e") #'efb-escape)
    (define-key map (kbd "<escape>") #'efb-escape)
    (define-key map (kbd "h") #'efb-hint)
    (define-key map (kbd "m") #'efb-menu)
    (define-key map (kbd "j") #'efb-goto-level)
    (define-key map (kbd "U") #'efb-undo)
    (define-key map [remap undo] #'efb-undo)
    (define-key map (kbd "C-/") #'efb-undo)
    (define-key map (kbd "T") #'efb-time-left)
    (define-key map (kbd "c") #'efb-clock)
    (define-key map (kbd "N") #'efb-replay)
    (define-key map (kbd "l") #'efb-repeat)
    (define-key map (kbd "v") #'efb-valid-action)
    (define-key map (kbd "w") #'efb-wait)
    (define-key map (kbd "g") #'efb-refresh)
    (define-key map (kbd "Q") #'efb-quit)
    (define-key map (kbd "C") #'efb-take-control)
    (define-key map (kbd "O") #'efb-hand-over)
    map)
  "Keys of `efb-mode': the gestures of a touch screen reader.")

(define-derived-mode efb-mode special-mode "EFB"
  "Play Escape From Blindness.

The buffer shows the screen, one line per element; the focused one
is marked with \"> \" and point is on it.  In a game shared by
`efb serve' (\\[efb-attach]), the header line starts with your part:
controller or observer.

\\{efb-mode-map}"
  (setq-local revert-buffer-function #'efb-refresh)
  (setq-local truncate-lines nil)
  (buffer-disable-undo)
  (visual-line-mode 1)
  (add-hook 'kill-buffer-hook #'efb--kill-process nil t))

(defun efb--kill-process ()
  "Stop the engine, as its buffer is killed."
  (efb--stop-ticker)
  (efb--stop-ambience)
  (when (and efb--process (process-live-p efb--process))
    ;; Nothing to say: the player closed the game on purpose.
    (set-process-sentinel efb--process #'ignore)
    (delete-process efb--process)))

(defun efb--program ()
  "The absolute file name of `efb-program', or nil if there is none."
  (if (string-match-p "/" efb-program)
      (let ((file (expand-file-name efb-program)))
        (and (file-executable-p file) (not (file-directory-p file)) file))
    (executable-find efb-program)))

;;;###autoload
(defun efb ()
  "Start a game of Escape From Blindness in the *efb* buffer.
A game already running there is shown again."
  (interactive)
  (let ((buffer (get-buffer-create efb-buffer-name)))
    (with-current-buffer buffer
      (unless (efb--live-p)
        (efb--reset nil)
        (let ((program (or (efb--program)
                           (user-error "Cannot find the efb program %S"
                                       efb-program))))
          (setq efb--process
                (make-process
                 :name "efb"
                 :buffer buffer
                 :command (append (list program "pipe") efb-program-args)
                 :coding 'utf-8-unix
                 :connection-type 'pipe
                 :noquery t
                 :stderr (get-buffer-create " *efb stderr*")
                 :filter #'efb--filter
                 :sentinel #'efb--sentinel)))
        (efb--wait-for (efb--hello))))
    (pop-to-buffer-same-window buffer)
    buffer))

(defun efb--reset (socket)
  "Make the current buffer a new game's, joined on SOCKET if non-nil."
  (efb--kill-process)
  (efb-mode)
  (setq efb--partial "" efb--next-id 1 efb--settled 0
        efb--finished nil efb--ended nil efb--screen nil
        efb--elements nil efb--focus nil efb--progress nil efb--chapter nil
        efb--quiet nil
        efb--timer nil efb--valid-actions nil efb--gen nil
        efb--utterances nil efb--assertive nil efb--announcements nil
        efb--sounds nil efb--errors nil efb--filter-errors nil
        efb--version nil efb--capabilities nil efb--new-screen nil
        efb--socket socket efb--role nil efb--control-free nil
        efb--leaving nil efb--closed nil efb--undo nil efb--undo-screen nil
        efb--undo-pending nil))

(defun efb-default-socket ()
  "The socket `efb serve' listens on when not told otherwise."
  (let ((runtime (getenv "XDG_RUNTIME_DIR")))
    (if (and runtime (string-prefix-p "/" runtime))
        (expand-file-name "escape-from-blindness/game.sock" runtime)
      (format "/tmp/escape-from-blindness-%d/game.sock" (user-uid)))))

(defun efb--attach-buffer (socket)
  "The buffer to join the game on SOCKET in: *efb*, unless in use."
  (let ((buffer (get-buffer efb-buffer-name)))
    (if (and buffer
             (with-current-buffer buffer
               (and (efb--live-p)
                    (not (equal efb--socket socket)))))
        (generate-new-buffer efb-buffer-name)
      (get-buffer-create efb-buffer-name))))

(defun efb--socket-problem (socket)
  "Why SOCKET may not be the user's own game, or nil when it is.
Emacs cannot ask a connected socket who serves it (SO_PEERCRED), so
this looks before connecting: the socket must belong to the user,
and so must its folder, closed to others (mode 0700); a folder that
is a symbolic link counts only if the user or root owns the link.
Only its owner can make or replace a socket in such a folder."
  (let* ((folder (directory-file-name (file-name-directory socket)))
         (link (file-attributes folder 'integer))
         (real (file-attributes (file-truename folder) 'integer))
         (attributes (file-attributes socket 'integer)))
    (cond
     ((and link (stringp (file-attribute-type link))
           (not (memq (file-attribute-user-id link) (list (user-uid) 0))))
      (format "its folder %s is a symbolic link that belongs to another user (uid %d)"
              folder (file-attribute-user-id link)))
     ((and real (not (eq (file-attribute-user-id real) (user-uid))))
      (format "its folder %s belongs to another user (uid %d)"
              folder (file-attribute-user-id real)))
     ((and real (not (string-suffix-p "------" (file-attribute-modes real))))
      (format "its folder %s is open to other users (%s)"
              folder (file-attribute-modes real)))
     ((and attributes (not (eq (file-attribute-user-id attributes) (user-uid))))
      (format "it is served by another user (uid %d), not by you"
              (file-attribute-user-id attributes))))))

;;;###autoload
(defun efb-attach (socket &optional buffer-name)
  "Join the game that `efb serve' shares on the Unix domain SOCKET.
The first player to join controls the game; the others follow it.
The game is shown in the *efb* buffer, or in BUFFER-NAME if given
\(another buffer when *efb* shows another game).  A connection already
open to SOCKET there is shown again."
  (interactive
   (let ((default (efb-default-socket)))
     (list (expand-file-name
            (read-file-name (format-prompt "Join the game served on" default)
                            (file-name-directory default) default t))
           nil)))
  (let ((problem (efb--socket-problem (expand-file-name socket))))
    (when problem
      (user-error "efb does not join the game on %s: %s" socket problem)))
  (let ((socket (expand-file-name socket))
        (buffer (if buffer-name
                    (get-buffer-create buffer-name)
                  (efb--attach-buffer (expand-file-name socket)))))
    (with-current-buffer buffer
      (unless (and (efb--live-p) (equal efb--socket socket))
        (efb--reset socket)
        (setq efb--process
              (condition-case err
                  (make-network-process
                   :name "efb"
                   :buffer buffer
                   :family 'local
                   :service socket
                   :coding 'utf-8-unix
                   :noquery t
                   :filter #'efb--filter
                   :sentinel #'efb--sentinel)
                (file-error
                 (setq efb--finished t efb--closed t)
                 (unless (equal (buffer-name buffer) efb-buffer-name)
                   (kill-buffer buffer))
                 (user-error "No game is served on %s (%s)" socket
                             (error-message-string err)))))
        (efb--wait-for (efb--hello))
        ;; Joining came before our hello, in protocol 1.1: once 1.2 is
        ;; agreed, the state again, shown but not said, names the chapter
        ;; on show and counts each chapter's levels.
        (when (efb--speaks-p '(1 2))
          (let ((id (efb--send-line '((type . "state")))))
            (push id efb--quiet)
            (efb--wait-for id)))))
    (pop-to-buffer-same-window buffer)
    buffer))

(provide 'efb)

;;; efb.el ends here
