;;; 50efb.el --- Debian start-up file for the efb package  -*- lexical-binding: t; -*-
;; SPDX-License-Identifier: Apache-2.0

;; M-x efb and M-x efb-attach, without a `require' in the user's init file.
;; The folder is checked first: after "apt remove" this file stays (it is a
;; conffile) but the front end is gone.
(when (file-directory-p "/usr/share/emacs/site-lisp/efb")
  (add-to-list 'load-path "/usr/share/emacs/site-lisp/efb")
  (autoload 'efb "efb" "Play Escape From Blindness." t)
  (autoload 'efb-attach "efb" "Join a game shared by efb serve." t))
