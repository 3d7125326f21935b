#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""efb web as Orca speaks it: what a screen reader's user hears, asserted from Orca's own words.

    dbus-run-session -- /usr/bin/python3 Tests/ScreenReader/test_orca.py --binary PATH [--artifacts DIR]
    (Tests/ScreenReader/run does this.)

Each test opens efb web in Chromium under Xvfb with Orca 43 running (orca_session.py) and presses keys
with xdotool, as a player does; what Orca says is read from its debug log. The tests check:
- a page load reads the game and lands on the first screen's heading, never in a combo box;
- after each screen change of the introduction Orca says the new title, and nothing from the top;
- a wrong answer's message is said once; a solved room's outcome once, after the next room's title;
- the page's keys (Control+Alt+letter, Escape) reach the page in Orca's browse mode and in its focus mode
  (Orca+A): hint, sound (said aloud), repeat, time, history (opened, then closed onto something Orca
  reads), level menu;
- a focused door whose name changes with its code says the code once (no live region says it again);
- a dial's Home and End turn it to its first and last value, and Orca says it;
- a key pressed while the page reconnects says it was not sent;
- a timed room's notices are said, from a polite live region (Orca's own debug log says which);
- the whole game, intro to the end, by keys only (EN): each screen's heading said when it opens.
Every utterance of the run is kept in ARTIFACTS/orca-utterances.txt, one test after another.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import unicodedata
import unittest
from typing import Any, Dict, List, Optional

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from orca_session import Browser, Desktop, wait_until  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPTIONS: Dict[str, str] = {}
DESKTOP: Optional[Desktop] = None

# The page's own words (the rest comes from the adventure files).
PAGE = {
    "en": {"not_sent": "that key was not sent", "next_item": "next item", "history": "What was said", "sound_off": "Sound off.", "sound_on": "Sound on.",
           "no_timer": "This room has no time limit.", "time_left": "Time left", "brand": "Escape From Blindness"},
    "fr": {"not_sent": "cette touche n’a pas été envoyée", "next_item": "élément suivant", "history": "Ce qui a été dit", "sound_off": "Son coupé.",
           "sound_on": "Son activé.", "no_timer": "Cette salle n’a pas de limite de temps.",
           "time_left": "Temps restant", "brand": "Escape From Blindness"},
}


def heading(title: str, level: int = 1) -> str:
    return f"{title} heading level {level}"


def headings_at(said: List[str], title: str, level: int = 1) -> List[int]:
    """Where Orca said `title` as a heading: the index of the utterance that ends it. Orca says it in one
    utterance ("Darkness heading level 1") or, in a say-all on a loaded machine, in two ("Darkness",
    "heading level 1")."""
    whole = heading(title, level)
    return [index for index, u in enumerate(said)
            if whole in u or (index > 0 and u.startswith(f"heading level {level}") and said[index - 1].endswith(title))]


def heard(said: List[str], text: str) -> bool:
    """Orca said `text`, in one utterance or across utterances that follow each other."""
    return any(text in u for u in said) or text in " ".join(said)


def titles_said(said: List[str], level: int = 1) -> List[str]:
    """The titles Orca said as headings of `level`, in order (whole or split in two utterances)."""
    titles = []
    suffix = f" heading level {level}"
    for index, u in enumerate(said):
        text = u.rstrip(".")
        if text.endswith(suffix):
            titles.append(text[: -len(suffix)].removeprefix("region "))
        elif text == suffix.strip() and index > 0:
            titles.append(said[index - 1].rstrip(".").removeprefix("region "))
    return titles


class Game:
    """What a player who knows the game knows: the adventure file."""

    def __init__(self, locale: str, first: Optional[str] = None, time_limit: Optional[int] = None) -> None:
        with open(os.path.join(ROOT, "Sources", "EscapeContent", "Adventures", f"{locale}.json"), encoding="utf-8") as file:
            self.adventure = json.load(file)
        self.path: Optional[str] = None
        if first is not None:
            # The chapter `first` moved to the front (its first level timed with `time_limit`), written to a
            # file efb web plays with --adventure.
            chapters = self.adventure["chapters"]
            chosen = next(chapter for chapter in chapters if chapter["id"] == first)
            self.adventure["chapters"] = [chosen] + [chapter for chapter in chapters if chapter is not chosen]
            if time_limit is not None:
                chosen["levels"][0]["timeLimit"] = time_limit
            self.path = os.path.join(tempfile.mkdtemp(prefix="efb-orca-adventure-"), f"{locale}.json")
            with open(self.path, "w", encoding="utf-8") as file:
                json.dump(self.adventure, file, ensure_ascii=False)
        self.chapters = self.adventure["chapters"]
        self.levels = [level for chapter in self.chapters for level in chapter["levels"]]
        self.by_title = {level["title"]: level for level in self.levels}
        self.intro = [page["title"] for page in self.adventure["intro"]]
        self.ending = self.adventure["ending"]["title"]

    def screens(self) -> List[str]:
        """The screens of the whole game in order: the introduction's pages, each chapter's page (marked
        `chapter:TITLE`: its heading adds the chapter's number) and levels, the ending."""
        screens = list(self.intro)
        for chapter in self.chapters:
            screens.append("chapter:" + chapter["title"])
            screens.extend(level["title"] for level in chapter["levels"])
        return screens + [self.ending]


class OrcaTestCase(unittest.TestCase):
    desktop: Desktop

    @classmethod
    def setUpClass(cls) -> None:
        cls.desktop = DESKTOP

    def setUp(self) -> None:
        self.desktop.note(f"==== {self.id()}")

    def open(self, locale: str, *arguments: str, game: Optional[Game] = None) -> List[str]:
        """efb web and Chromium on it; returns what Orca said while the page loaded, once it is quiet."""
        self.locale = locale
        self.words = PAGE[locale]
        self.game = game or Game(locale)
        if self.game.path:
            arguments = ("--adventure", self.game.path, *arguments)
        browser = Browser(self.desktop, OPTIONS["binary"], ["--memory-save", "--locale", locale, "--seed", "1",
                                                           *arguments], locale)
        self.addCleanup(browser.close)
        self.browser = browser
        mark = self.desktop.mark()
        browser.open()
        first = self.game.intro[0]
        wait_until(f"Orca to read {heading(first)!r}", lambda: headings_at(self.desktop.since(mark), first), 60)
        said = self.desktop.quiet(mark, 1.5, 20)
        return said

    def key(self, *keys: str, quiet: float = 1.0) -> List[str]:
        return self.desktop.key(*keys, quiet=quiet)

    def assert_said(self, said: List[str], text: str, why: str) -> None:
        self.assertTrue(heard(said, text), f"{why}: Orca did not say {text!r}; it said {said}")

    def assert_screen_change(self, said: List[str], title: str, why: str) -> None:
        """The new title is said as a heading, and nothing from the top of the page (brand, progress)."""
        self.assertTrue(headings_at(said, title), f"{why}: Orca did not say {heading(title)!r}; it said {said}")
        top = [u for u in said if u.startswith(self.words["brand"]) or "levels solved" in u or "niveaux résolus" in u]
        self.assertEqual(top, [], f"{why}: the top of the page was read: {said}")

    def tab_to(self, start: str, backwards: bool = False, limit: int = 45) -> List[str]:
        """Tab (or Shift+Tab) until Orca names a control that starts with `start`; returns what it said then.
        The cycle goes through Chromium's own toolbar too."""
        for _ in range(limit):
            said = self.key("shift+Tab" if backwards else "Tab", quiet=0.5)
            if any(u.startswith(start) for u in said):
                return said
            # Past the screen's last control: back the other way (Tab through Chromium's toolbar and back
            # into the page lands on the first control silently).
            if not backwards and "leaving region." in said:
                backwards = True
        self.fail(f"Tab never reached {start!r}")

    def to_first_level(self) -> str:
        """Escape skips the introduction, the magic tap key begins the first chapter."""
        first_chapter = self.game.adventure["chapters"][0]["title"]
        said = self.key("Escape")
        self.assert_said(said, first_chapter, "Escape skips the introduction")
        title = self.game.levels[0]["title"]
        self.assert_screen_change(self.key("ctrl+alt+m"), title, "the magic tap key begins the chapter")
        return title

    def check_keys(self, title: str, mode: str) -> None:
        w = self.words
        said = self.key("ctrl+alt+h")
        self.assertTrue(said, f"the hint key says something in {mode}")
        hint = said[-1]
        self.assert_said(self.key("ctrl+alt+s"), w["sound_off"], f"the sound key in {mode}")
        # Repeat after something else was said (the same text twice in a row is not read again by Orca).
        self.assert_said(self.key("ctrl+alt+r"), hint, f"the repeat key in {mode}")
        self.assert_said(self.key("ctrl+alt+t"), w["no_timer"], f"the time key in {mode}")
        self.assert_said(self.key("ctrl+alt+s"), w["sound_on"], f"the sound key again in {mode}")
        self.assert_said(self.key("ctrl+alt+y"), heading(w["history"], 2), f"the history key in {mode}")
        said = self.key("ctrl+alt+y")
        self.assertTrue(said, f"closing the history lands on something Orca reads ({mode})")
        menu = self.key("ctrl+alt+l")
        self.assertTrue(any("heading level 1" in u for u in menu) or any("push button" in u for u in menu),
                        f"the level menu key in {mode}: {menu}")
        self.assert_said(self.key("Escape"), title, f"Escape leaves the menu in {mode}")


class ScreenChangeTests(OrcaTestCase):
    def check_load_and_intro(self, locale: str) -> None:
        said = self.open(locale)
        self.assertEqual([u for u in said if "combo box" in u or u in ("Focus mode", "Browse mode")], [],
                         f"the page load pulled Orca into a control: {said}")
        # The first screen's heading is said, and after it Orca stays in the game: its own say-all on
        # load may read on from there (the story, the controls) or add "Loading.  Please wait.", but it
        # never goes back to the top of the page (brand, progress) once the game's heading was said.
        first = headings_at(said, self.game.intro[0])
        self.assertTrue(first, f"the page load says the first screen's heading: {said}")
        top = [u for u in said[first[-1] + 1:]
               if u.startswith(self.words["brand"]) or "levels solved" in u or "niveaux résolus" in u]
        self.assertEqual(top, [], f"the page load ends in the game, not back at the top of the page: {said}")
        # Each page of the introduction by Tab to Continue and Enter, as a new player does.
        for title in self.game.intro[1:]:
            self.tab_to("Continue")
            said = self.key("Return")
            self.assert_screen_change(said, title, "Enter on Continue")

    def test_a_page_load_and_each_screen_change_in_english(self) -> None:
        self.check_load_and_intro("en")

    def test_a_page_load_and_each_screen_change_in_french(self) -> None:
        self.check_load_and_intro("fr")


class RoomTests(OrcaTestCase):
    def check_rooms(self, locale: str) -> None:
        self.open(locale)
        title = self.to_first_level()
        level = self.game.levels[0]
        puzzle = level["puzzle"]
        # A wrong answer: its message once.
        wrong = next(a for a in puzzle["answers"] if not a.get("correct"))
        self.tab_to(wrong["label"])
        said = self.key("Return")
        message = wrong.get("feedback") or puzzle["wrong"]
        self.assertEqual(sum(u.count(message) for u in said), 1, f"the wrong answer's message once: {said}")
        # The right one: the next room's title first (the focus moves to it), then the room's outcome, once
        # (polite: it does not cut the title off).
        right = next(a for a in puzzle["answers"] if a.get("correct"))
        self.tab_to(right["label"])
        said = self.key("Return")
        following = self.game.levels[1]["title"]
        self.assert_screen_change(said, following, "a solved room")
        at = headings_at(said, following)[0]
        after = [u for u in said[at + 1:] if u.strip()]
        self.assertEqual(len(after), 1, f"the outcome once, after the title: {said}")

        # The keys in browse mode (focus on the heading).
        self.check_keys(self.game.levels[1]["title"], "browse mode")
        del title

    def test_rooms_and_keys_in_english(self) -> None:
        self.check_rooms("en")

    def test_rooms_and_keys_in_french(self) -> None:
        self.check_rooms("fr")


class FocusModeTests(OrcaTestCase):
    """Orca's focus mode (Orca+A, the Orca key being Insert): keys go to the page, not to Orca."""

    def check_focus_mode(self, locale: str) -> None:
        game = Game(locale, first="vault")
        self.open(locale, game=game)
        title = self.to_first_level()
        puzzle = self.game.levels[0]["puzzle"]
        self.tab_to(puzzle["door"])
        self.assert_said(self.key("Insert+a"), "Focus mode", "Orca+A")
        # The focused door's name changes with each code: the code is said once, not a second time by a
        # live region.
        codes = puzzle["codes"]
        for code in codes[:2]:
            said = self.key("Down")
            self.assertEqual(sum(u.split(", ")[-1].rstrip(".") == code for u in said), 1,
                             f"the door's new code once: {said}")
        self.check_keys(title, "focus mode")

    def test_keys_and_a_name_change_in_focus_mode_in_english(self) -> None:
        self.check_focus_mode("en")

    def test_keys_and_a_name_change_in_focus_mode_in_french(self) -> None:
        self.check_focus_mode("fr")


class DialTests(OrcaTestCase):
    """A dial is a spin button with its place among its values: Home and End turn it to its first and last
    value, and Orca says that value (before, Home and End only said that the values go round)."""

    def check_dial(self, locale: str) -> None:
        game = Game(locale, first="locks")
        self.open(locale, game=game)
        self.to_first_level()
        dial = self.game.levels[0]["puzzle"]["dials"][0]
        values = dial["values"]
        # Tab onto the dial switches Orca to focus mode by itself.
        self.tab_to(dial["label"])
        for key, value in (("End", values[-1]), ("Home", values[0]), ("Up", values[1])):
            said = self.key(key)
            self.assertTrue(any(u.rstrip(".") == value for u in said), f"{key} on the dial says {value!r}: {said}")

    def test_home_and_end_on_a_dial_in_english(self) -> None:
        self.check_dial("en")

    def test_home_and_end_on_a_dial_in_french(self) -> None:
        self.check_dial("fr")


class DisconnectedTests(OrcaTestCase):
    def check_key_while_disconnected(self, locale: str) -> None:
        self.open(locale)
        self.to_first_level()
        # The server goes (as when it restarts): a key pressed meanwhile says it was not sent; before, it
        # vanished in silence.
        self.browser.stop_server()
        self.desktop.quiet(self.desktop.mark(), 1.5, 8)
        self.assert_said(self.key("ctrl+alt+h"), self.words["not_sent"], "a key while the page reconnects")

    def test_a_key_while_disconnected_in_english(self) -> None:
        self.check_key_while_disconnected("en")

    def test_a_key_while_disconnected_in_french(self) -> None:
        self.check_key_while_disconnected("fr")


class TimedTests(OrcaTestCase):
    def check_notices(self, locale: str) -> None:
        # The Ice House first, its first room timed to 47 s: the first notice (45 s) comes 2 s in.
        game = Game(locale, first="torch", time_limit=47)
        self.open(locale, game=game)
        self.to_first_level()
        notice = "45"
        said = self.desktop.since(self.desktop.mark() - 12)
        if not any(notice in u for u in said):
            mark = self.desktop.mark()
            found = self.desktop.wait_for(lambda u: notice in u.text, 10, "the 45 s notice", mark)
            said = [found.text]
        text = next(u for u in said if notice in u)
        self.assertEqual(self.desktop.live_politeness(text), "polite", f"the notice {text!r} is polite")
        # Asking for the time, in browse mode, between notices.
        self.assert_said(self.key("ctrl+alt+t"), self.words["time_left"], "the time key on a timed level")

    def test_a_timed_rooms_notices_in_english(self) -> None:
        self.check_notices("en")

    def test_a_timed_rooms_notices_in_french(self) -> None:
        self.check_notices("fr")


class WholeGameTests(OrcaTestCase):
    """The whole game by keys, as Orca speaks it: each screen's heading is said when it opens, each level
    solved the way its kind asks (buttons, a typed answer, a door's rotor in focus mode, objects'
    actions, dials), timed levels without a clock (--no-time-pressure)."""

    def play(self, locale: str) -> None:
        self.wrong_typed = False
        self.open(locale, "--no-time-pressure", "--hint-interval", "600")
        screens = self.game.screens()
        title = screens[0]
        for expected in screens[1:]:
            said = self.solve(title)
            titles = titles_said(said)
            if expected.startswith("chapter:"):
                matches = [t for t in titles if t.endswith(expected.removeprefix("chapter:"))]
            else:
                matches = [t for t in titles if t == expected]
            self.assertTrue(matches, f"after {title!r}, Orca says the heading of {expected!r}: {said}")
            top = [u for u in said if u.startswith(self.words["brand"]) or "levels solved" in u or "niveaux résolus" in u]
            self.assertEqual(top, [], f"after {title!r}, the top of the page was read: {said}")
            title = expected

    def solve(self, title: str) -> List[str]:
        """What a player does on the screen `title` to go on; returns what Orca said after the last key."""
        level = self.game.by_title.get(title)
        if level is None:
            # An introduction page or a chapter's page: the magic tap key goes on.
            return self.key("ctrl+alt+m", quiet=1.5)
        puzzle = level["puzzle"]
        kind = level["kind"]
        if kind == "closedQuestion":
            right = next(a for a in puzzle["answers"] if a.get("correct"))
            self.tab_to(right["label"])
            return self.key("Return", quiet=1.5)
        if kind == "openQuestion":
            # Tab into the field turns Orca's focus mode on; the typed answer, then Enter.
            self.tab_to(puzzle["field"])
            if not self.wrong_typed:
                # A wrong answer first: its message once, and never the typed text read back.
                self.wrong_typed = True
                typed = "zyxwv"
                self.desktop.type(typed)
                said = self.key("Return", quiet=1.5)
                self.assertEqual(sum(u.count(puzzle["wrong"]) for u in said), 1, f"the wrong answer's message once: {said}")
                self.assertFalse(any(typed in u for u in said), f"the typed answer is not read back: {said}")
                self.key(*["BackSpace"] * len(typed), quiet=0.5)
            # Typed as on a keyboard without accents (xdotool cannot type é under Xvfb's keymap): the game
            # ignores diacritics.
            typed = "".join(c for c in unicodedata.normalize("NFD", puzzle["accepted"][0]) if not unicodedata.combining(c))
            self.desktop.type(typed)
            return self.key("Return", quiet=1.5)
        if kind == "rotor":
            self.tab_to(puzzle["door"])
            self.assert_said(self.key("Insert+a"), "Focus mode", "Orca+A on the door")
            for _ in range(len(puzzle["codes"]) + 1):
                said = self.key("Down")
                if any(u.split(", ")[-1].rstrip(".") == puzzle["answer"] for u in said):
                    break
            else:
                self.fail(f"the door never said the code {puzzle['answer']!r}")
            return self.key("Return", quiet=1.5)
        if kind == "customActions":
            said: List[str] = []
            for item in puzzle["objects"]:
                self.tab_to(f"{item['label']}: {item['correct']}")
                said = self.key("Return", quiet=1.5)
            return said
        if kind == "dials":
            for dial, target in zip(puzzle["dials"], puzzle["combination"]):
                said = self.tab_to(dial["label"])
                for _ in range(len(dial["values"]) + 1):
                    # "Left wheel 0 spin button." on the way in, the value alone after a turn.
                    if any(u.rstrip(".").removesuffix(" spin button").split(" ")[-1] == target.split(" ")[-1]
                           and (u.rstrip(".") == target or u.rstrip(".").removesuffix(" spin button").endswith(" " + target))
                           for u in said):
                        break
                    said = self.key("Up")
                else:
                    self.fail(f"the dial {dial['label']!r} never said {target!r}")
            return self.key("ctrl+alt+m", quiet=1.5)
        self.fail(f"a level of kind {kind!r}")

    def test_the_whole_game_in_english(self) -> None:
        self.play("en")


def main() -> None:
    global DESKTOP
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--artifacts", default=os.path.join(ROOT, "artifacts", "screenreader"))
    arguments, rest = parser.parse_known_args()
    OPTIONS["binary"] = os.path.abspath(arguments.binary)
    os.makedirs(arguments.artifacts, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="efb-orca-")
    DESKTOP = Desktop(folder, os.path.join(arguments.artifacts, "orca-utterances.txt"))
    started = time.monotonic()
    try:
        DESKTOP.start()
        print(f"Orca is up after {time.monotonic() - started:.1f} s", file=sys.stderr)
        program = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2)
        ok = program.result.wasSuccessful()
    finally:
        DESKTOP.stop()
    print(f"Orca's utterances: {os.path.join(arguments.artifacts, 'orca-utterances.txt')}; "
          f"{time.monotonic() - started:.0f} s in all", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
