#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What `efb play --speech` says, heard by a private speech-dispatcher (see speechd.py).

Each scenario plays through a pipe, waits for the speech to be quiet (bounded, never a fixed sleep where
a condition can be awaited) and checks the ordered list of chunks said, each whole or cut.
`--show` prints the lists instead of checking them (for the record: before and after).
"""

import argparse
import fcntl
import os
import re
import json
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speechd import PrivateSpeechDispatcher  # noqa: E402


class Game:
    """`efb play --speech` through a pipe, with what it writes collected."""

    def __init__(self, binary, speechd, arguments):
        self.state = tempfile.mkdtemp(prefix="efb-speech-state-")
        env = speechd.environment()
        env["XDG_STATE_HOME"] = self.state
        self.process = subprocess.Popen(
            [binary, "play", "--speech", "--memory-save", "--seed", "1"] + arguments,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for stream in (self.process.stdout, self.process.stderr):
            flags = fcntl.fcntl(stream.fileno(), fcntl.F_GETFL)
            fcntl.fcntl(stream.fileno(), fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.output = ""
        self.errors = ""

    def read(self):
        for stream, name in ((self.process.stdout, "output"), (self.process.stderr, "errors")):
            try:
                data = stream.read()
            except BlockingIOError:
                data = None
            if data:
                setattr(self, name, getattr(self, name) + data.decode("utf-8", "replace"))
        return self.output

    def wait_for(self, text, timeout=20.0):
        """Waits for `text` (or any of several) to be written."""
        texts = text if isinstance(text, tuple) else (text,)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read()
            if any(one in self.output for one in texts):
                return self.output
            time.sleep(0.02)
        raise AssertionError(f"never written: {text!r}\n--- output:\n{self.output}\n--- errors:\n{self.errors}")

    def type(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def number(self, label):
        match = None
        for match in re.finditer(r"^(\d+)\. " + re.escape(label) + r", (button|bouton)$", self.read(), re.M):
            pass
        if not match:
            raise AssertionError(f"no button {label!r} in:\n{self.output}")
        return match.group(1)

    def stop(self):
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.read()


def to_first_door(game, speechd, quiet=True):
    game.wait_for(("Darkness, 3 items:", "Dans le noir, 3 éléments"))
    game.type("esc")
    game.wait_for(("Chapter 1", "Chapitre 1"))
    game.type("l")
    game.type("")
    game.wait_for((", 6 items:", ", 6 éléments"))
    if quiet:
        speechd.wait_quiet()


def scenario(binary, arguments, play):
    speechd = PrivateSpeechDispatcher().start()
    game = Game(binary, speechd, arguments)
    try:
        mark = play(game, speechd)
        speechd.wait_quiet()
        said = speechd.utterances()[mark:]
        game.languages = set(speechd.languages()[mark:])
    finally:
        game.stop()
        speechd.stop()
    return said, game


def solved_door(label, next_room):
    def play(game, speechd):
        to_first_door(game, speechd)
        mark = len(speechd.utterances())
        game.type(game.number(label))
        game.type("a")
        game.wait_for(next_room)
        return mark

    return play


def look_with_notice(game, speechd):
    # The hint unlocks two seconds into the level: while `look`, typed on arrival, is being said.
    to_first_door(game, speechd, quiet=False)
    mark = len(speechd.utterances())
    game.type("look")
    game.wait_for("A new hint is ready.", timeout=10)
    # The test means something only if the list was still being said when the notice came.
    now = speechd.utterances()[mark:]
    if not now or now[-1][1] or "1 of 6: The First Door" in now[-1][0]:
        raise AssertionError(f"the notice came after the list, not in the middle of it: {now!r}")
    return mark


def timed_adventure():
    """The lantern room's first lock alone, timed (20 seconds): a question the countdown runs over."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "docs", "examples", "lantern-room.json"), encoding="utf-8") as f:
        adventure = json.load(f)
    level = adventure["chapters"][0]["levels"][0]
    level["timeLimit"] = 20
    adventure["chapters"][0]["levels"] = [level]
    handle, path = tempfile.mkstemp(prefix="efb-timed-", suffix=".json")
    with os.fdopen(handle, "w", encoding="utf-8") as f:
        json.dump(adventure, f)
    return path


def countdown_over_question(game, speechd):
    game.wait_for("Continue, button")
    game.type("esc")
    game.wait_for("Begin, button")
    game.type("l")
    game.type("")
    mark = len(speechd.utterances())
    game.wait_for("This room is timed")
    game.wait_for("1 second of torchlight left.", timeout=30)
    return mark


def normalised(said):
    return " ".join(" ".join(text for text, _ in said).split())


def heard_in_order(said, expected):
    """The expected texts, in order, in what was said; the chunks from the first of them on said whole
    (or, cut by the player's key, said whole again later)."""
    text = normalised(said)
    problems = []
    at = 0
    for part in expected:
        found = text.find(part, at)
        if found < 0:
            problems.append(f"not heard (in this order): {part!r}")
        else:
            at = found + len(part)
    # The check starts at the chunk that says the first expected text. Chunks before it may be cut: the
    # player's key that led here stops what was being said, and a slow speech server can log that cut
    # chunk after the scenario's mark ("Chapter 1: The Lantern", cut by the key that began the level).
    start = normalised([(expected[0], True)])
    first = next((index for index, (chunk, _) in enumerate(said) if start in " ".join(chunk.split())), 0)
    # A chunk the player's own key cut (keys stop speech at once) and that is then said again whole
    # (`look` typed while the room was still being read) is not lost; a chunk cut for good is.
    later = said[first:]
    cut = [
        chunk
        for index, (chunk, whole) in enumerate(later)
        if not whole and not any(again_whole and again.startswith(chunk[:24]) for again, again_whole in later[index + 1:])
    ]
    if cut:
        problems.append(f"cut: {cut!r}")
    return problems


def check_the_checker():
    """heard_in_order on lists recorded from real runs: what passed must pass, what failed must fail."""
    # CI, stop 50: on a loaded machine the chapter's title, cut by the key that began the level, was
    # logged after the scenario's mark. It was cut by the player, before the first expected text.
    latch = [
        ("Chapter 1: The Lantern", False),
        ("3 of 3: Begin, button", True),
        ("The Latch, 5 items: 1. The Latch, heading 2. A wooden", True),
        ("latch holds the first door. 3. Which handle lifts the latch? 4. The warm handle, button", True),
        ("5. The cold handle, button", True),
    ]
    expected = ["The Latch, 5 items:", "3. Which handle lifts the latch?", "5. The cold handle, button"]
    assert heard_in_order(latch, expected) == [], heard_in_order(latch, expected)
    # A chunk cut after the first expected text, and never said again whole, is lost: that fails.
    lost = latch[:3] + [("latch holds the first door. 3. Which handle", False), ("5. The cold handle, button", True)]
    assert any(p.startswith("cut:") for p in heard_in_order(lost, expected)), heard_in_order(lost, expected)
    # Cut by a key and then said again whole (look typed while the room was read) is not lost.
    again = lost[:4] + [("latch holds the first door. 3. Which handle lifts the latch?", True)] + lost[4:]
    assert heard_in_order(again, expected) == [], heard_in_order(again, expected)
    # What is missing, or heard out of order, fails.
    assert heard_in_order(latch, ["5. The cold handle, button", "The Latch, 5 items:"]) != []


FIRST_DOOR = [
    "The First Door, 6 items:",
    "1. The First Door, heading",
    "2. Your hand finds a wooden door with a brass plate.",
    "3. What will guide you, now that your lantern is dark?",
    "4. My other senses, button",
    "5. A map drawn in chalk, button",
    "6. The light of the moon, button",
]

SCENARIOS = {
    "solved door, then a new room": (
        ["--locale", "en", "--clock", "virtual"],
        solved_door("My other senses", "The Singing Wall, 6 items:"),
        [
            "Correct.",
            "The door swings open with a long, dry creak. Cooler air flows in from the next room.",
            "Progress: 1 of 25 levels solved.",
            "The Singing Wall, 6 items:",
            "2. A low, steady murmur comes from your left.",
            "3. I run without legs, I am cold to the touch, and I grow louder as you walk to the left. What am I?",
            "6. Running water, button",
            "1 of 6: The Singing Wall, heading",
        ],
    ),
    "solved door in French": (
        ["--locale", "fr", "--clock", "virtual"],
        solved_door("Mes autres sens", "Le Mur qui chante, 6 éléments"),
        [
            "Bonne réponse.",
            "La porte pivote dans un long grincement sec.",
            "Progression : 1 niveau résolu sur 25.",
            "Le Mur qui chante, 6 éléments :",
            "Qui suis-je ?",
            "1 sur 6 : Le Mur qui chante, titre",
        ],
    ),
    "countdown over a question": (
        ["--locale", "en", "--adventure", "TIMED"],
        countdown_over_question,
        [
            "The Latch, 5 items:",
            "3. Which handle lifts the latch?",
            "5. The cold handle, button",
            "1 of 5: The Latch, heading",
            "This room is timed: 20 seconds.",
            "15 seconds of torchlight left.",
            "10 seconds of torchlight left.",
            "5 seconds of torchlight left.",
            "3 seconds of torchlight left.",
            "1 second of torchlight left.",
        ],
    ),
    "look with a notice arriving mid-list": (
        ["--locale", "en", "--hint-interval", "2"],
        look_with_notice,
        FIRST_DOOR + ["1 of 6: The First Door, heading", "A new hint is ready. Ask for it whenever you like."],
    ),
}


def show(said):
    for text, whole in said:
        print(("  " if whole else "  [cut] ") + text)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--binary", required=True, help="efb or efb-full")
    parser.add_argument("--show", action="store_true", help="print what is said instead of checking it")
    parser.add_argument("--only", help="one scenario by name")
    options = parser.parse_args()
    check_the_checker()
    failures = 0
    for name, (arguments, play, expected) in SCENARIOS.items():
        if options.only and options.only != name:
            continue
        timed = timed_adventure() if "TIMED" in arguments else None
        try:
            arguments = [timed if argument == "TIMED" else argument for argument in arguments]
            said, game = scenario(options.binary, arguments, play)
        finally:
            if timed:
                os.unlink(timed)
        print(f"{name}:")
        show(said)
        if game.errors.strip():
            print("  stderr: " + game.errors.strip())
            failures += 0 if options.show else 1
        if options.show:
            continue
        problems = heard_in_order(said, expected)
        language = "fr" if "fr" in arguments else "en"
        if game.languages != {language}:
            problems.append(f"said in {sorted(game.languages)}, not in {language}")
        for problem in problems:
            print("  FAILED: " + problem)
        failures += 1 if problems else 0
    if not options.show:
        print("speech: all heard as expected" if not failures else f"speech: {failures} scenario(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
