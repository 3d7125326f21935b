#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What Fenrir, Debian's console screen reader, speaks while reading `efb play` in a PTY inside tmux.

Fenrir runs the game as its shell (PTY screen and keyboard drivers), at 80x25; its generic speech
driver runs a logger once per utterance with the text as one argument. Keys go in with tmux send-keys;
after each step the log is read once it has been quiet for a while (bounded). Utterances are compared
normalised: a step's utterances joined, split on Fenrir's " , ", blanks and the echoed command dropped.
"""

import argparse
import configparser
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Fenrir:
    def __init__(self, binary):
        self.root = tempfile.mkdtemp(prefix="efb-fenrir-")
        self.log = os.path.join(self.root, "spoken.log")
        self.socket = "efb-fenrir-" + str(os.getpid())
        open(self.log, "w").close()
        logger = os.path.join(self.root, "say")
        with open(logger, "w") as f:
            f.write('#!/bin/sh\nprintf \'%s\\n\' "$1" >> "' + self.log + '"\n')
        os.chmod(logger, 0o755)
        game = os.path.join(self.root, "game")
        state = os.path.join(self.root, "state")
        os.makedirs(state)
        with open(game, "w") as f:
            f.write(
                "#!/bin/sh\n"
                f"export XDG_STATE_HOME='{state}' HOME='{self.root}' LANG=C.UTF-8\n"
                f"exec '{binary}' play --seed 1 --clock virtual --memory-save --locale en\n"
            )
        os.chmod(game, 0o755)
        config = configparser.ConfigParser(interpolation=None)
        config.optionxform = str
        config.read("/etc/fenrirscreenreader/settings/settings-pty.conf")
        config["sound"]["enabled"] = "False"
        config["speech"]["driver"] = "genericDriver"
        config["speech"]["genericSpeechCommand"] = f"{logger} fenrirText"
        config["screen"]["driver"] = "ptyDriver"
        config["keyboard"]["driver"] = "ptyDriver"
        config["keyboard"]["keyboardLayout"] = "pty"
        config["general"]["shell"] = game
        config["general"]["debugFile"] = os.path.join(self.root, "fenrir-debug.log")
        config["remote"]["enable"] = "False"
        self.config = os.path.join(self.root, "settings.conf")
        with open(self.config, "w") as f:
            config.write(f)

    def tmux(self, *arguments):
        return subprocess.run(["tmux", "-L", self.socket] + list(arguments), check=True, capture_output=True)

    def start(self):
        self.tmux("new-session", "-d", "-s", "s", "-x", "80", "-y", "25", f"fenrir -e -s '{self.config}'")
        self.wait_for("Type help for the commands", timeout=30)
        self.quiet()
        return self

    def lines(self):
        with open(self.log, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()

    def wait_for(self, text, timeout=15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.lines()):
                return
            time.sleep(0.05)
        screen = self.tmux("capture-pane", "-p", "-t", "s").stdout.decode()
        raise AssertionError(f"Fenrir never said {text!r}:\n" + "\n".join(self.lines()) + "\n--- screen:\n" + screen)

    def quiet(self, seconds=1.2, timeout=15.0):
        deadline = time.monotonic() + timeout
        last = (-1, time.monotonic())
        while time.monotonic() < deadline:
            size = os.path.getsize(self.log)
            if size != last[0]:
                last = (size, time.monotonic())
            elif time.monotonic() - last[1] >= seconds:
                return
            time.sleep(0.05)

    def step(self, command):
        """Types `command` and Enter; returns what Fenrir said for it, normalised."""
        mark = len(self.lines())
        self.tmux("send-keys", "-t", "s", "-l", command)
        self.tmux("send-keys", "-t", "s", "Enter")
        self.quiet()
        said = " , ".join(self.lines()[mark:])
        parts = [part.strip() for part in said.split(" , ")]
        return [part for part in parts if part and part not in (command, "> " + command, ">")]

    def stop(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)


def contains_in_order(said, expected):
    text = " | ".join(said)
    at = 0
    missing = []
    for part in expected:
        found = text.find(part, at)
        if found < 0:
            missing.append(part)
        else:
            at = found + len(part)
    return missing


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", required=True)
    options = parser.parse_args()
    fenrir = Fenrir(options.binary)
    failures = 0
    try:
        fenrir.start()
        first = [line for line in fenrir.lines() if "pychant" not in line and line != "Start Fenrir"]
        steps = [
            (
                "the first screen",
                first,
                ["Escape From Blindness", "Type help for the commands, or q to quit.", "Darkness, 3 items:",
                 "3. Continue, button", "1 of 3: Darkness, heading"],
            ),
        ]
        steps.append(("help", fenrir.step("help"), HELP))
        fenrir.step("esc")
        fenrir.step("l")
        fenrir.step("")
        moon = None
        screen = fenrir.tmux("capture-pane", "-p", "-t", "s", "-S", "-200").stdout.decode()
        for line in screen.splitlines():
            if line.endswith(". The light of the moon, button"):
                moon = line.split(".")[0]
        fenrir.step(moon or "6")
        steps.append(("a wrong answer", fenrir.step("a"), ["Wrong.", "No moonlight reaches this deep."]))
        fenrir.step("4")
        steps.append(
            (
                "a new room",
                fenrir.step("a"),
                ["Correct.", "The door swings open", "The Singing Wall, 6 items:", "1 of 6: The Singing Wall, heading"],
            )
        )
        for name, said, expected in steps:
            missing = contains_in_order(said, expected)
            print(f"{name}:")
            for part in said:
                print("  " + part)
            for part in missing:
                print("  FAILED: never said (in this order): " + part)
            failures += 1 if missing else 0
    finally:
        fenrir.stop()
    print("fenrir: all heard as expected" if not failures else f"fenrir: {failures} step(s) failed")
    return 1 if failures else 0


# What help must let Fenrir say: its first commands and its last line, none scrolled away.
HELP = ["n, next: move to the next item.", "esc, escape: the escape gesture.", "q, quit: stop playing.",
        "help more: the other commands"]

if __name__ == "__main__":
    sys.exit(main())
