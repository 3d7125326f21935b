#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""efb web in a real browser: Debian's chromium through chromium-driver, driven by selenium.

    python3 Tests/Browser/test_web.py [--binary PATH] [--artifacts DIR] [unittest options]

- axe-core (from the axe-selenium-python wheel, see find_axe) finds no serious or critical violation
  on the intro, every level kind, the level menu, a timed level and the game end, in English and French;
- a bot that reads only the browser's accessibility tree (CDP Accessibility.getFullAXTree) and
  presses keys (no clicks, no calls into the page's script) plays the whole game, every chapter and
  the timed levels with the torch burning, in both languages; the answers come from the adventure
  files, as a player who knows the game;
- after every screen change the focus is on the new screen's heading or on the element the engine
  focused; a wrong answer's message is in a live region within a second;
- the guards refuse a missing or wrong token (401/403, no redirect), a foreign Host, a foreign Origin
  at the WebSocket handshake (no 101), and a second tab gets the choice to take over or watch;
- hints, repeat and the history of what was said ("what did I miss") from the keyboard;
- the page reconnects after the server restarts and comes back to the same place;
- the interface other tools rely on: the one URL line on standard output (with --port 0), the server
  stopping when its standard input ends and on SIGINT or SIGTERM, and the same --seed giving the same
  game as efb pipe --seed (over the page's WebSocket, spoken by a small client here);
- a screenshot of each screen kind is kept in the artifacts folder (default: artifacts/browser).

Needs scripts/install-deps (chromium, chromium-driver, selenium, the axe wheel) and a built efb.
"""

from __future__ import annotations

import argparse
import base64
import glob
import hashlib
import http.client
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile
from typing import Any, Callable, Dict, List, Optional

sys.dont_write_bytecode = True

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPTIONS: Dict[str, str] = {}

# The page's own words the bot looks for (the rest comes from the adventure files).
PAGE_WORDS = {
    "en": {"next_item": "next item", "choice": "This game is open in another tab", "watch": "Watch",
           "take_over": "Take over here", "taken_over": "Another tab took over", "back": "Reconnected",
           "watching": "You are watching", "you_play": "You play now", "another_plays": "another tab plays",
           "not_sent": "was not sent", "rotor_now": "change rotor, now"},
    "fr": {"next_item": "élément suivant", "choice": "Cette partie est ouverte dans un autre onglet",
           "watch": "Regarder", "take_over": "Prendre la main ici", "taken_over": "Un autre onglet a pris la main",
           "back": "Reconnecté", "watching": "Tu regardes", "you_play": "Tu joues maintenant",
           "another_plays": "un autre onglet joue", "not_sent": "n’a pas été envoyée", "rotor_now": "changer de rotor"},
}


def adventure_starting_with(locale: str, *chapter_ids: str) -> str:
    """A copy of the shipped adventure whose first chapters are `chapter_ids` (so a test reaches a rotor
    or a dial after the introduction's Escape and one magic tap); the file's path."""
    with open(os.path.join(ROOT, "Sources", "EscapeContent", "Adventures", f"{locale}.json"), encoding="utf-8") as file:
        adventure = json.load(file)
    chapters = adventure["chapters"]
    first = [c for i in chapter_ids for c in chapters if c["id"] == i]
    adventure["chapters"] = first + [c for c in chapters if c not in first]
    folder = tempfile.mkdtemp(prefix="efb-adventure-")
    path = os.path.join(folder, f"{locale}.json")
    with open(path, "w", encoding="utf-8") as file:
        json.dump(adventure, file, ensure_ascii=False)
    return path


def wait_for(what: str, condition: Callable[[], Any], timeout: float = 10.0, step: float = 0.05) -> Any:
    """Polls `condition` until it is truthy; fails with `what` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(step)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def find_axe() -> str:
    """axe-core's axe.min.js, from the axe-selenium-python 3.x wheel (installed, or downloaded by
    scripts/install-deps into the cache when this Python is older than the wheel asks for)."""
    try:
        import axe_selenium_python  # type: ignore

        path = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                return file.read()
    except ImportError:
        pass
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    wheels = sorted(glob.glob(os.path.join(cache, "escape-from-blindness", "axe", "axe_selenium_python-3*.whl")))
    if not wheels:
        raise RuntimeError("axe-selenium-python 3.x is missing: run scripts/install-deps")
    with zipfile.ZipFile(wheels[-1]) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith("axe-core/axe.min.js"))
        return wheel.read(name).decode("utf-8")


class Server:
    """`efb web` started on a port, with its standard input held open (its end stops the server)."""

    def __init__(self, *arguments: str, port: int = 0, environment: Optional[Dict[str, str]] = None) -> None:
        self.process = subprocess.Popen(
            [OPTIONS["binary"], "web", "--port", str(port), *arguments],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment,
        )
        line = self.process.stdout.readline().decode().strip()
        if not line.startswith("http://"):
            error = self.process.stderr.read().decode()
            raise RuntimeError(f"efb web printed {line!r}: {error}")
        self.url = line
        self.port = int(line.split(":")[2].split("/")[0])
        self.token = line.split("token=")[1]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()


def start_browser(locale: str) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,1300",
                     f"--lang={locale}", "--autoplay-policy=no-user-gesture-required", "--mute-audio"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.set_page_load_timeout(30)
    return driver


class Page:
    """A browser tab seen as a screen reader sees it: the accessibility tree, and keys."""

    def __init__(self, driver: webdriver.Chrome, locale: str) -> None:
        self.driver = driver
        self.locale = locale
        self.words = PAGE_WORDS[locale]
        driver.execute_cdp_cmd("Accessibility.enable", {})

    # The accessibility tree.

    def tree(self) -> List[Dict[str, Any]]:
        return self.driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]

    @staticmethod
    def prop(node: Dict[str, Any], name: str) -> Any:
        for item in node.get("properties", []):
            if item["name"] == name:
                return item["value"].get("value")
        return None

    @staticmethod
    def name(node: Dict[str, Any]) -> str:
        # French spacing's no-break spaces read as spaces: the tests compare with the adventure file.
        return ((node.get("name") or {}).get("value", "") or "").replace("\u00a0", " ").replace("\u202f", " ")

    @staticmethod
    def role(node: Dict[str, Any]) -> str:
        return (node.get("role") or {}).get("value", "") or ""

    def value(self, node: Dict[str, Any]) -> str:
        """An adjustable's value as the tree holds it: aria-valuetext (which CDP leaves empty in
        chromium 156, though the platform's API carries it), else the text inside the control."""
        text = self.prop(node, "valuetext")
        if text:
            return str(text)
        by_id = {n["nodeId"]: n for n in self.tree()}
        return " ".join(self.text_of(by_id[c], by_id) for c in node.get("childIds", []) if c in by_id).strip()

    def focused(self) -> Optional[Dict[str, Any]]:
        for node in self.tree():
            if not node.get("ignored") and self.prop(node, "focused") and self.role(node) != "RootWebArea":
                return node
        return None

    def screen_of(self, node: Dict[str, Any]) -> Optional[str]:
        """The name of the region (the screen, named by its title) that holds `node`, if any."""
        tree = self.tree()
        by_id = {n["nodeId"]: n for n in tree}
        parents = {child: n["nodeId"] for n in tree for child in n.get("childIds", [])}
        current = by_id.get(node["nodeId"])
        while current is not None:
            if self.role(current) == "region":
                return self.name(current)
            parent = current.get("parentId") or parents.get(current["nodeId"])
            current = by_id.get(parent) if parent else None
        return None

    def nodes(self, role: str) -> List[Dict[str, Any]]:
        return [n for n in self.tree() if not n.get("ignored") and self.role(n) == role]

    def title(self) -> str:
        """The screen's title: the level-1 heading."""
        for node in self.nodes("heading"):
            if self.prop(node, "level") == 1:
                return self.name(node)
        return ""

    def live_text(self, politeness: Optional[str] = None) -> str:
        """The text now in the live regions (aria-live), as the tree holds it."""
        tree = self.tree()
        by_id = {n["nodeId"]: n for n in tree}
        texts = []
        for node in tree:
            live = self.prop(node, "live")
            if live and live != "off" and (politeness is None or live == politeness) and self.prop(node, "atomic") is not None:
                texts.append(self.text_of(node, by_id))
        return " ".join(t for t in texts if t)

    def text_of(self, node: Dict[str, Any], by_id: Dict[str, Dict[str, Any]]) -> str:
        if self.role(node) in ("StaticText", "text"):
            return self.name(node)
        return " ".join(self.text_of(by_id[c], by_id) for c in node.get("childIds", []) if c in by_id)

    # Keys.

    def press(self, *keys: str) -> None:
        ActionChains(self.driver).send_keys(*keys).perform()

    def chord(self, *modifiers_and_key: str) -> None:
        actions = ActionChains(self.driver)
        *modifiers, key = modifiers_and_key
        for modifier in modifiers:
            actions.key_down(modifier)
        actions.send_keys(key)
        for modifier in reversed(modifiers):
            actions.key_up(modifier)
        actions.perform()

    def tab_to(self, matches: Callable[[Dict[str, Any]], bool], what: str, limit: int = 120) -> Dict[str, Any]:
        """Presses Tab until the focused node matches."""
        for _ in range(limit):
            node = self.focused()
            if node is not None and matches(node):
                return node
            self.press(Keys.TAB)
        raise AssertionError(f"Tab never reached {what}; focus is on {self.describe(self.focused())}")

    def tab_to_named(self, role: str, prefix: str) -> Dict[str, Any]:
        return self.tab_to(lambda n: self.role(n) == role and self.name(n).startswith(prefix), f"{role} {prefix!r}")

    @classmethod
    def describe(cls, node: Optional[Dict[str, Any]]) -> str:
        return "nothing" if node is None else f"{cls.role(node)} {cls.name(node)!r}"

    def wait_new_screen(self, old_title: str, timeout: float = 10) -> str:
        return wait_for(f"a screen after {old_title!r}", lambda: (t := self.title()) and t != old_title and t, timeout)


class Game:
    """What a player who knows the game knows: the adventure file's levels and answers."""

    def __init__(self, locale: str) -> None:
        with open(os.path.join(ROOT, "Sources", "EscapeContent", "Adventures", f"{locale}.json"), encoding="utf-8") as file:
            self.adventure = json.load(file)
        self.levels = {level["title"]: level for chapter in self.adventure["chapters"] for level in chapter["levels"]}

    def level(self, title: str) -> Optional[Dict[str, Any]]:
        return self.levels.get(title)

    def kind(self, title: str) -> str:
        """What a screen is, known from its title alone (as a player hears it): the end, a level, a
        chapter's page, or a page of the introduction."""
        if title == self.adventure["ending"]["title"]:
            return "end"
        if title in self.levels:
            return "level"
        if any(chapter["title"] in title for chapter in self.adventure["chapters"]):
            return "chapter"
        return "intro"


class BrowserTests(unittest.TestCase):
    axe = ""
    artifacts = ""

    @classmethod
    def setUpClass(cls) -> None:
        cls.axe = find_axe()
        cls.artifacts = OPTIONS["artifacts"]
        os.makedirs(cls.artifacts, exist_ok=True)

    # Helpers.

    def open(self, locale: str, *arguments: str, port: int = 0) -> (Server, Page):
        server = Server("--locale", locale, "--seed", "1", *arguments, port=port)
        self.addCleanup(server.stop)
        driver = start_browser(locale)
        self.addCleanup(driver.quit)
        driver.get(server.url)
        page = Page(driver, locale)
        wait_for("the first screen", lambda: page.title() not in ("", "Escape From Blindness"), 15)
        return server, page

    def check_axe(self, page: Page, label: str) -> None:
        page.driver.execute_script(self.axe)
        result = page.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations)).catch(e => done(String(e)));"
        )
        self.assertIsInstance(result, list, f"axe failed on {label}: {result}")
        serious = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
                   for v in result if v.get("impact") in ("serious", "critical")]
        self.assertEqual(serious, [], f"axe on {label}")

    def screenshot(self, page: Page, name: str) -> None:
        page.driver.save_screenshot(os.path.join(self.artifacts, f"{name}.png"))

    def assert_focus_on_screen(self, page: Page, title: str) -> None:
        """Focus is on the new screen's heading, or on a control of the screen the engine focused."""
        def settled() -> Optional[Dict[str, Any]]:
            node = page.focused()
            if node is None:
                return None
            if page.role(node) == "heading" and page.name(node) == title:
                return node
            # A control the engine focused: one of the new screen's, not one left over or outside it.
            if page.role(node) in ("button", "textbox", "spinbutton") and page.screen_of(node) == title:
                return node
            return None
        node = wait_for(f"focus on the screen {title!r}", settled, 5)
        if page.role(node) != "heading":
            # Only the menu focuses an entry; every other screen starts on its heading.
            self.assertTrue(page.name(node), f"focused control has no name on {title!r}")

    # The whole game, by keys, from the accessibility tree.

    def play_whole_game(self, locale: str) -> None:
        server, page = self.open(locale, "--memory-save", "--hint-interval", "600")
        game = Game(locale)
        seen_kinds = set()
        checked_menu = False
        wrong_checked = set()
        title = page.title()
        self.assert_focus_on_screen(page, title)
        self.check_axe(page, f"{locale} intro")
        self.screenshot(page, f"{locale}-intro")
        for _ in range(80):
            kind = game.kind(title)
            if kind == "end":
                break
            if kind in ("intro", "chapter"):
                # The magic tap key: continue on an intro page, begin on a chapter page.
                if kind == "chapter" and "chapter" not in seen_kinds:
                    seen_kinds.add("chapter")
                    self.check_axe(page, f"{locale} chapter page")
                    self.screenshot(page, f"{locale}-chapter")
                page.chord(Keys.CONTROL, Keys.ALT, "m")
            else:
                level = game.level(title)
                self.assertIsNotNone(level, f"no level is called {title!r}")
                level_kind = level["kind"] + ("-timed" if level.get("timeLimit") else "")
                if level_kind not in seen_kinds:
                    seen_kinds.add(level_kind)
                    if level.get("timeLimit"):
                        timer = wait_for("the timer", lambda: page.nodes("timer"), 3)
                        text = page.text_of(timer[0], {n["nodeId"]: n for n in page.tree()})
                        self.assertIn(":", text, "a timed level shows its time left in a timer")
                        # Not live: it is spoken at the game's moments (its announcements), not every second.
                        self.assertIn(page.prop(timer[0], "live"), (None, "off"), "the timer is not a live region")
                    self.check_axe(page, f"{locale} {level_kind}")
                    self.screenshot(page, f"{locale}-level-{level_kind}")
                if not checked_menu and level["kind"] == "rotor":
                    checked_menu = True
                    self.check_menu(page, locale, title)
                if level["kind"] not in wrong_checked:
                    wrong_checked.add(level["kind"])
                    self.answer_wrong(page, level)
                self.solve(page, level)
            title = page.wait_new_screen(title, timeout=15)
            self.assert_focus_on_screen(page, title)
        self.assertEqual(game.kind(title), "end")
        for kind in ("closedQuestion", "openQuestion", "rotor", "customActions", "dials"):
            self.assertIn(kind, {k.split("-")[0] for k in seen_kinds})
        self.assertTrue(any(k.endswith("-timed") for k in seen_kinds))
        self.check_axe(page, f"{locale} game end")
        self.screenshot(page, f"{locale}-end")

    def check_menu(self, page: Page, locale: str, title: str) -> None:
        page.chord(Keys.CONTROL, Keys.ALT, "l")
        menu_title = page.wait_new_screen(title)
        self.assert_focus_on_screen(page, menu_title)
        focused = page.focused()
        self.assertEqual(page.role(focused), "button", "the menu focuses the entry of the level being played")
        self.check_axe(page, f"{locale} level menu")
        self.screenshot(page, f"{locale}-menu")
        page.press(Keys.ESCAPE)
        back = page.wait_new_screen(menu_title)
        self.assertEqual(back, title)
        self.assert_focus_on_screen(page, back)

    def answer_wrong(self, page: Page, level: Dict[str, Any]) -> None:
        """A wrong answer: its message is in a live region within a second, and the screen stays."""
        title = page.title()
        if level["kind"] == "closedQuestion":
            wrong = next(a for a in level["puzzle"]["answers"] if not a.get("correct"))
            page.tab_to_named("button", wrong["label"])
            started = time.monotonic()
            page.press(Keys.ENTER)
            text = wait_for("the wrong answer's message in a live region", lambda: page.live_text("assertive"), 1.0)
            self.assertLess(time.monotonic() - started, 1.0)
            expected = wrong.get("feedback") or level["puzzle"].get("wrong", "")
            self.assertIn(expected[:20], text)
            self.assertEqual(page.title(), title)
        elif level["kind"] == "openQuestion":
            # The typed answer is never read back, and the field keeps the focus without being made anew.
            typed = "zyxwv"
            field = page.tab_to_named("textbox", level["puzzle"]["field"])
            before = page.live_text()
            started = time.monotonic()
            page.press(typed, Keys.ENTER)
            text = wait_for("the wrong answer's message in a live region",
                            lambda: (t := page.live_text()) and t != before and t, 1.0)
            self.assertLess(time.monotonic() - started, 1.0)
            self.assertNotIn(typed, text, "the typed answer is not echoed into a live region")
            self.assertEqual(page.title(), title)
            focused = page.focused()
            self.assertEqual((page.role(focused), page.name(focused)), (page.role(field), page.name(field)))
            page.press(*[Keys.BACKSPACE] * len(typed))
            wait_for("the field emptied", lambda: not page.focused().get("value", {}).get("value"), 2)

    def solve(self, page: Page, level: Dict[str, Any]) -> None:
        puzzle = level["puzzle"]
        kind = level["kind"]
        if kind == "closedQuestion":
            right = next(a for a in puzzle["answers"] if a.get("correct"))
            page.tab_to_named("button", right["label"])
            # Enter or Space activates a control: the French game uses Space.
            page.press(Keys.SPACE if page.locale == "fr" else Keys.ENTER)
        elif kind == "openQuestion":
            page.tab_to_named("textbox", puzzle["field"])
            page.press(puzzle["accepted"][0], Keys.ENTER)
        elif kind == "rotor":
            door = puzzle["door"]
            page.tab_to_named("button", f"{door}: {page.words['next_item']}")

            def door_node() -> Optional[Dict[str, Any]]:
                return next((n for n in page.nodes("button") if page.name(n).startswith(door + ",")
                             or page.name(n) == door), None)
            for _ in range(len(puzzle["codes"]) + 1):
                node = door_node()
                if node is not None and page.name(node).endswith(", " + puzzle["answer"]):
                    break
                before = page.name(node) if node is not None else None
                page.press(Keys.ENTER)
                wait_for("the door's next code",
                         lambda b=before: (n := door_node()) is not None and page.name(n) != b, 3)
            wait_for("the right code", lambda: page.name(door_node()).endswith(", " + puzzle["answer"]), 3)
            page.chord(Keys.SHIFT, Keys.TAB)
            page.chord(Keys.SHIFT, Keys.TAB)
            node = page.focused()
            self.assertTrue(page.name(node).startswith(door), f"back on the door: {page.describe(node)}")
            page.press(Keys.ENTER)
        elif kind == "customActions":
            title = page.title()
            for item in puzzle["objects"]:
                result = next(a["result"] for a in item["actions"] if a["name"] == item["correct"])
                page.tab_to_named("button", f"{item['label']}: {item['correct']}")
                page.press(Keys.ENTER)
                # Said in a live region, or the room is solved and the next screen comes.
                wait_for(f"what {item['correct']!r} does",
                         lambda r=result: r[:20] in page.live_text() or page.title() != title, 3)
        elif kind == "dials":
            for dial, target in zip(puzzle["dials"], puzzle["combination"]):
                page.tab_to(lambda n, d=dial: page.role(n) == "spinbutton" and page.name(n) == d["label"],
                            f"the dial {dial['label']}")
                for _ in range(len(dial["values"]) + 1):
                    node = page.focused()
                    if page.value(node) == target:
                        break
                    before = page.value(node)
                    page.press(Keys.ARROW_UP)
                    wait_for("the dial to turn", lambda b=before: page.value(page.focused()) != b, 3)
                self.assertEqual(page.value(page.focused()), target)
            # The magic tap key tries the combination.
            page.chord(Keys.CONTROL, Keys.ALT, "m")
        else:
            self.fail(f"unknown level kind {kind}")

    def test_the_whole_game_in_english(self) -> None:
        self.play_whole_game("en")

    def test_the_whole_game_in_french(self) -> None:
        self.play_whole_game("fr")

    # The guards.

    def request(self, port: int, path: str, host: Optional[str] = None, headers: Optional[Dict[str, str]] = None):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        if response.status != 101:
            response.read()
        connection.close()
        return response

    def handshake(self, port: int, origin: str, cookie: str) -> int:
        key = base64.b64encode(os.urandom(16)).decode()
        response = self.request(port, "/ws", headers={
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
            "Sec-WebSocket-Version": "13", "Origin": origin, "Cookie": cookie,
        })
        if response.status == 101:
            accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
            self.assertEqual(response.getheader("Sec-WebSocket-Accept"), accept)
        return response.status

    def test_the_guards(self) -> None:
        server = Server("--memory-save", port=free_port())  # a fixed port: the cookie is named after it
        self.addCleanup(server.stop)
        port, token = server.port, server.token
        cookie = f"efb-web-{port}=wrong"
        for path in ("/", "/app.js", "/ws"):
            self.assertEqual(self.request(port, path).status, 401, path)
            self.assertEqual(self.request(port, path + "?token=wrong").status, 403, path)
            self.assertEqual(self.request(port, path, headers={"Cookie": cookie}).status, 403, path)
        ok = self.request(port, f"/?token={token}")
        self.assertEqual(ok.status, 200)
        self.assertIsNone(ok.getheader("Location"))
        cookie = ok.getheader("Set-Cookie").split(";")[0]
        for host in ("evil.example", f"evil.example:{port}", f"127.0.0.2:{port}"):
            self.assertEqual(self.request(port, f"/?token={token}", host=host).status, 403, host)
            self.assertEqual(self.request(port, "/", host=host, headers={"Cookie": cookie}).status, 403, host)
        for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
            self.assertEqual(self.request(port, "/", host=host, headers={"Cookie": cookie}).status, 200, host)
        for origin in ("http://evil.example", f"http://localhost:{port}", "null", f"https://127.0.0.1:{port}"):
            self.assertNotEqual(self.handshake(port, origin, cookie), 101, origin)
        self.assertEqual(self.handshake(port, f"http://127.0.0.1:{port}", cookie), 101)

    def test_a_second_tab_may_take_over_or_watch(self) -> None:
        server, first = self.open("en", "--memory-save")
        driver = first.driver
        first_handle = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(f"http://127.0.0.1:{server.port}/")
        second = Page(driver, "en")
        words = second.words
        wait_for("the choice", lambda: second.title() == words["choice"], 10)
        self.assertEqual(second.role(second.focused()), "heading")
        self.check_axe(second, "en second tab's choice")
        self.screenshot(second, "en-second-tab-choice")
        second.tab_to_named("button", words["watch"])
        second.press(Keys.ENTER)
        wait_for("the game, watched", lambda: second.title() not in ("", words["choice"]), 10)
        def watching() -> bool:
            return any(words["watching"] in second.name(n) for n in second.nodes("StaticText"))
        wait_for("the page to say it watches", watching, 5)
        second.tab_to_named("button", words["take_over"])
        second.press(Keys.ENTER)
        wait_for("the page to stop saying it watches", lambda: not watching(), 5)
        driver.switch_to.window(first_handle)
        wait_for("the first tab to be told", lambda: words["taken_over"] in first.live_text(), 5)
        self.screenshot(first, "en-taken-over")

    def test_hints_repeat_and_history_from_the_keyboard(self) -> None:
        """Control+Alt+H says a hint, Control+Alt+R says it again, Control+Alt+Y shows what was said and goes to it."""
        _, page = self.open("en", "--memory-save", "--hints-at-once")
        game = Game("en")
        title = page.title()
        while game.kind(title) != "level":
            page.chord(Keys.CONTROL, Keys.ALT, "m")
            title = page.wait_new_screen(title)
        hint = game.level(title)["hints"][0]

        def history() -> List[str]:
            by_id = {m["nodeId"]: m for m in page.tree()}
            return [page.text_of(n, by_id) for n in page.nodes("listitem")]
        page.chord(Keys.CONTROL, Keys.ALT, "h")
        wait_for("the hint in a live region", lambda: hint in page.live_text(), 2)
        page.chord(Keys.CONTROL, Keys.ALT, "y")
        focused = wait_for("the history's heading to take the focus",
                           lambda: (n := page.focused()) and page.role(n) == "heading" and n, 2)
        self.assertEqual(page.name(focused), "What was said")
        said = wait_for("the history's items", history, 2)
        self.assertTrue(any(hint in item for item in said), said)
        self.assertTrue(any(item.strip() == title for item in said), said)
        count = sum(hint in item for item in said)
        page.chord(Keys.CONTROL, Keys.ALT, "r")
        wait_for("the hint said again", lambda: sum(hint in item for item in history()) > count, 2)
        self.screenshot(page, "en-history")

    def test_the_page_comes_back_after_the_server_restarts(self) -> None:
        folder = tempfile.mkdtemp(prefix="efb-web-")
        save = os.path.join(folder, "progress.json")
        port = free_port()
        server, page = self.open("en", "--save", save, port=port)
        game = Game("en")
        title = page.title()
        while game.kind(title) != "level":
            page.chord(Keys.CONTROL, Keys.ALT, "m")
            title = page.wait_new_screen(title)
        self.solve(page, game.level(title))
        title = page.wait_new_screen(title)
        server.stop()
        restarted = Server("--locale", "en", "--save", save, port=port)
        self.addCleanup(restarted.stop)
        wait_for("the page to say it is back", lambda: PAGE_WORDS["en"]["back"] in page.live_text(), 20)
        self.assertEqual(page.title(), title)
        node = page.focused()
        self.assertIsNotNone(node)
        # And it plays on.
        self.solve(page, game.level(title))
        page.wait_new_screen(title)

    def test_a_game_efb_serve_shares_plays_in_the_browser(self) -> None:
        """--attach: the browser joins a game efb serve shares (as a Braille display would beside it)."""
        folder = tempfile.mkdtemp(prefix="efb-serve-")  # mode 0700, as efb serve asks
        path = os.path.join(folder, "game.sock")
        served = subprocess.Popen([OPTIONS["binary"], "serve", "--socket", path, "--memory-save", "--locale", "fr"],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def stop_served() -> None:
            served.send_signal(signal.SIGTERM)
            served.wait(timeout=15)
            served.stderr.close()
        self.addCleanup(stop_served)
        wait_for("efb serve's socket", lambda: os.path.exists(path), 20)
        server = Server("--attach", path)
        self.addCleanup(server.stop)
        driver = start_browser("fr")
        self.addCleanup(driver.quit)
        driver.get(server.url)
        page = Page(driver, "fr")
        game = Game("fr")
        wait_for("the served game's first screen", lambda: page.title() not in ("", "Escape From Blindness"), 15)
        self.assertEqual(driver.find_element("tag name", "html").get_attribute("lang"), "fr")
        # The page's own French words are set with French spacing, as the engine's are.
        text = driver.execute_script("return document.body.textContent")
        self.assertIn("mode formulaire\u00a0: Orca", text)
        self.assertNotIn("mode formulaire : Orca", text)
        title = page.title()
        self.assert_focus_on_screen(page, title)
        while game.kind(title) != "level":
            page.chord(Keys.CONTROL, Keys.ALT, "m")
            title = page.wait_new_screen(title)
            self.assert_focus_on_screen(page, title)
        self.solve(page, game.level(title))
        page.wait_new_screen(title)


    # Issue 42, item 3: what a keyboard player found.

    def watching_second_tab(self) -> (Page, Page, str, str):
        return self.watching_second_tab_in("en")

    def banner_text(self, page: Page) -> str:
        return " ".join(page.name(n) for n in page.nodes("StaticText") if page.words["watching"] in page.name(n))

    def test_taking_over_from_the_banner_moves_the_focus_and_says_so(self) -> None:
        """The banner's Take over here hides the banner: the focus goes to the screen's heading, and a
        polite live region says this tab plays now."""
        _, second, _, _ = self.watching_second_tab()
        words = second.words
        title = second.title()
        second.tab_to_named("button", words["take_over"])
        second.press(Keys.ENTER)
        focused = wait_for("the focus on the screen's heading after taking over",
                           lambda: (n := second.focused()) and second.role(n) == "heading" and n, 3)
        self.assertEqual(second.name(focused), title)
        wait_for("the take-over said politely", lambda: words["you_play"] in second.live_text("polite"), 2)

    def test_the_tab_taken_over_says_another_tab_plays_and_how_to_take_over(self) -> None:
        first, second, first_handle, _ = self.watching_second_tab()
        words = second.words
        second.tab_to_named("button", words["take_over"])
        second.press(Keys.ENTER)
        second.driver.switch_to.window(first_handle)
        wait_for("the first tab to be told", lambda: words["taken_over"] in first.live_text(), 5)
        text = wait_for("the first tab's banner", lambda: self.banner_text(first), 5)
        self.assertIn(words["another_plays"], text)
        self.assertIn(words["take_over"], text, "the banner says how to take over")
        self.assertNotIn("nobody", text)

    def test_a_restart_on_the_introduction_does_not_cover_it(self) -> None:
        """The introduction's place is not saved: after a restart the page is on its first page, a new
        screen for the player (its heading focused), not "back where you were"."""
        folder = tempfile.mkdtemp(prefix="efb-web-")
        port = free_port()
        server, page = self.open("en", "--save", os.path.join(folder, "progress.json"), port=port)
        first_title = page.title()
        page.chord(Keys.CONTROL, Keys.ALT, "m")
        page.wait_new_screen(first_title)
        server.stop()
        wait_for("the page to say the connection was lost", lambda: "lost" in page.live_text(), 10)
        restarted = Server("--locale", "en", "--seed", "1", "--save", os.path.join(folder, "progress.json"), port=port)
        self.addCleanup(restarted.stop)
        wait_for("the first page again", lambda: page.title() == first_title, 20)
        wait_for("the reconnection said politely", lambda: PAGE_WORDS["en"]["back"] in page.live_text("polite"), 2)
        time.sleep(0.3)
        message = page.driver.find_element("id", "message").text
        for said in (page.live_text(), message):
            self.assertNotIn("back where you were", said)
        focused = page.focused()
        self.assertEqual((page.role(focused), page.name(focused)), ("heading", first_title))

    def test_the_rotor_button_says_the_rotor_now_chosen(self) -> None:
        _, page = self.open("en", "--memory-save", "--adventure", adventure_starting_with("en", "vault"))
        title = page.title()
        page.press(Keys.ESCAPE)
        title = page.wait_new_screen(title)
        page.chord(Keys.CONTROL, Keys.ALT, "m")
        page.wait_new_screen(title)
        rotor = page.tab_to(lambda n: page.role(n) == "button" and page.words["rotor_now"] in page.name(n),
                            "the rotor button")
        self.assertTrue(page.name(rotor).endswith("Codes"), page.name(rotor))
        page.press(Keys.ENTER)
        wait_for("the rotor button to say Clues", lambda: page.name(page.focused()).endswith("Clues"), 3)
        page.press(Keys.ENTER)
        wait_for("the rotor button to say Codes", lambda: page.name(page.focused()).endswith("Codes"), 3)

    def tab_order(self, page: Page) -> List[Dict[str, Any]]:
        """The controls Tab reaches, once each, from the screen's heading round to it again."""
        order: List[Dict[str, Any]] = []
        seen = set()
        for _ in range(60):
            page.press(Keys.TAB)
            node = page.focused()
            if node is None:
                continue
            key = (page.role(node), page.name(node), node.get("backendDOMNodeId"))
            if key in seen:
                break
            seen.add(key)
            order.append(node)
        return order

    def test_one_control_per_action_in_the_tab_order(self) -> None:
        _, page = self.open("en", "--memory-save")
        for where in ("intro", "level"):
            order = self.tab_order(page)
            names = [page.name(n) for n in order]
            self.assertEqual(len(names), len(set(names)), f"a control twice in the Tab order on the {where}: {names}")
            if where == "intro":
                self.assertEqual(names.count("Continue"), 1, names)
                continue_ = next(n for n in order if page.name(n) == "Continue")
                self.assertIn("Control+Alt+M", page.prop(continue_, "keyshortcuts") or "", "the kept control has the key")
                title = page.title()
                page.press(Keys.ESCAPE)
                title = page.wait_new_screen(title)
                page.chord(Keys.CONTROL, Keys.ALT, "m")
                page.wait_new_screen(title)
            else:
                for duplicate in ("Hear a hint", "Open the level menu"):
                    self.assertNotIn(duplicate, names)
                for kept in ("Hint", "Level menu"):
                    self.assertIn(kept, names)
        # The keys still work: the magic tap (a hint on a level) and Escape (the level menu).
        title = page.title()
        page.press(Keys.ESCAPE)
        page.wait_new_screen(title)

    def test_a_dial_says_its_place_among_its_values_and_home_and_end_turn_it_to_its_ends(self) -> None:
        """Protocol 1.3's range: a dial is a spinbutton with aria-valuemin 1, aria-valuemax its number of
        values, aria-valuenow its value's place among them and aria-valuetext the value's word, kept up to
        date on every turn; Home and End turn it to its first and last values (adjust first and last)."""
        for locale in ("en", "fr"):
            with self.subTest(locale=locale):
                _, page = self.open(locale, "--memory-save", "--adventure", adventure_starting_with(locale, "locks"))
                title = page.title()
                page.press(Keys.ESCAPE)
                title = page.wait_new_screen(title)
                page.chord(Keys.CONTROL, Keys.ALT, "m")
                title = page.wait_new_screen(title)
                level = Game(locale).level(title)
                self.assertIsNotNone(level, f"a level: {title}")
                dial = level["puzzle"]["dials"][0]
                values = dial["values"]
                node = page.tab_to(lambda n, d=dial: page.role(n) == "spinbutton" and page.name(n) == d["label"],
                                   f"the dial {dial['label']}")

                def aria() -> List[Optional[str]]:
                    # What the page set on the focused control, as a screen reader's API reads it.
                    return page.driver.execute_script(
                        "const d = document.activeElement;"
                        "return ['aria-valuemin', 'aria-valuemax', 'aria-valuenow', 'aria-valuetext']"
                        ".map(name => d.getAttribute(name));")

                def at(value: str) -> List[str]:
                    return ["1", str(len(values)), str(values.index(value) + 1), value]

                self.assertEqual(aria(), at(dial["start"]))
                # The accessibility tree has the bounds too (CDP gives them as numbers).
                self.assertEqual(page.prop(node, "valuemin"), 1)
                self.assertEqual(page.prop(node, "valuemax"), len(values))
                for key, value in ((Keys.END, values[-1]), (Keys.HOME, values[0]), (Keys.ARROW_DOWN, values[-1]),
                                   (Keys.ARROW_UP, values[0]), (Keys.ARROW_UP, values[1]), (Keys.END, values[-1]),
                                   (Keys.ARROW_UP, values[0])):
                    page.press(key)
                    wait_for(f"{key!r} to turn the dial to {value}", lambda v=value: aria() == at(v), 3)
                    self.assertEqual(page.value(page.focused()), value)
                    self.assertEqual(page.role(page.focused()), "spinbutton")
                # Home, End and the arrows turn the dial: no sentence about values going round any more.
                told = page.driver.execute_script(
                    "return Array.from(document.querySelectorAll('#history li')).map(li => li.textContent)")
                self.assertFalse([t for t in told if "no first or last" in t or "sans première" in t], told)

    def test_a_key_pressed_while_disconnected_says_it_was_not_sent(self) -> None:
        server, page = self.open("en", "--memory-save")
        server.stop()
        wait_for("the page to say the connection was lost", lambda: "lost" in page.live_text(), 10)
        page.chord(Keys.CONTROL, Keys.ALT, "h")
        wait_for("the key said not sent", lambda: page.words["not_sent"] in page.live_text(), 2)

    def test_the_french_page_says_tu_and_french_key_names(self) -> None:
        """The French page's own words: "tu" as the game says, and Maj, Ctrl, Alt, Entrée, Échap."""
        with open(os.path.join(ROOT, "Sources", "EscapeWeb", "Page", "app.js"), encoding="utf-8") as file:
            source = file.read()
        french = source[source.index("    fr: {"):source.index("  // French spacing")]
        for word in ("vous", "Vous", "votre", "Prenez", "prenez", "ouvrez", "Shift", "Control", "Escape", "Enter"):
            self.assertIsNone(re.search(rf"\b{word}\b", french), f"{word!r} in the page's French words")
        first, second, first_handle, _ = self.watching_second_tab_in("fr")
        self.assertIn(second.words["watching"], self.banner_text(second))

    def watching_second_tab_in(self, locale: str) -> (Page, Page, str, str):
        """A second tab that chose to watch: the first page, the second page, their window handles."""
        server, first = self.open(locale, "--memory-save")
        driver = first.driver
        first_handle = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(f"http://127.0.0.1:{server.port}/")
        second = Page(driver, locale)
        wait_for("the choice", lambda: second.title() == second.words["choice"], 10)
        second.tab_to_named("button", second.words["watch"])
        second.press(Keys.ENTER)
        wait_for("the game, watched", lambda: second.title() not in ("", second.words["choice"]), 10)
        wait_for("the banner", lambda: self.banner_text(second), 5)
        return first, second, first_handle, driver.current_window_handle


class WebSocket:
    """The page's side of a WebSocket (RFC 6455), enough to speak to efb web as its page does: text
    messages in and out, the cookie the page got with the token, and the page's own Origin."""

    def __init__(self, port: int, cookie: str) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall((
            f"GET /ws?client=interface-test HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.receive_some()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise AssertionError(f"no WebSocket: {head!r}")

    def receive_some(self) -> bytes:
        data = self.socket.recv(65536)
        if not data:
            raise AssertionError("the server closed the socket")
        return data

    def take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self.buffer += self.receive_some()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        length = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | length]) if length < 126 else bytes([0x80 | 126]) + struct.pack("!H", length))
        self.socket.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def message(self) -> str:
        """The next whole text message (the server's frames are not masked)."""
        parts = []
        while True:
            first, second = self.take(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self.take(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self.take(8))[0]
            payload = self.take(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise AssertionError("the server closed the WebSocket")
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if first & 0x80:
                    return b"".join(parts).decode()

    def events(self) -> List[Dict[str, Any]]:
        return [json.loads(line) for line in self.message().split("\n") if line.strip()]

    def close(self) -> None:
        self.socket.close()


class InterfaceTests(unittest.TestCase):
    """What other tools rely on (issue 27, "The interface, exactly"), without a browser."""

    def start(self, *arguments: str) -> Server:
        server = Server("--memory-save", *arguments)
        self.addCleanup(server.stop)
        return server

    def test_one_url_line_then_it_serves_until_its_input_ends(self) -> None:
        server = self.start()
        self.assertRegex(server.url, r"^http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{32}$")
        self.assertNotEqual(server.port, 0, "--port 0 picks a free port and prints it")
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", f"/?token={server.token}")
        self.assertEqual(connection.getresponse().status, 200)
        connection.close()
        self.assertIsNone(server.process.poll(), "idle, it keeps serving while its input is open")
        server.process.stdin.close()
        self.assertEqual(server.process.wait(timeout=30), 0)
        self.assertEqual(server.process.stdout.read(), b"", "standard output carries the URL line only")

    def test_open_hands_the_address_to_the_desktops_browser(self) -> None:
        """--open runs xdg-open (here a stand-in first on PATH) with the address it printed."""
        folder = tempfile.mkdtemp(prefix="efb-open-")
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", folder], check=False))
        opened = os.path.join(folder, "opened")
        opener = os.path.join(folder, "xdg-open")
        with open(opener, "w", encoding="utf-8") as file:
            file.write(f'#!/bin/sh\nprintf "%s\\n" "$1" >"{opened}.part" && mv "{opened}.part" "{opened}"\n')
        os.chmod(opener, 0o755)
        environment = dict(os.environ, PATH=folder + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"))
        server = Server("--memory-save", "--open", environment=environment)
        self.addCleanup(server.stop)
        wait_for("xdg-open to be run", lambda: os.path.exists(opened), 10)
        with open(opened, encoding="utf-8") as file:
            self.assertEqual(file.read().strip(), server.url)

    def test_sigint_and_sigterm_stop_it(self) -> None:
        for stop in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(signal=stop.name):
                server = self.start()
                server.process.send_signal(stop)
                self.assertEqual(server.process.wait(timeout=30), 0)

    def test_without_its_page_it_says_so_and_stops(self) -> None:
        """A binary with no page at ../share/efb/web nor beside it (a broken install) does not serve 404s."""
        folder = tempfile.mkdtemp(prefix="efb-no-page-")
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", folder], check=False))
        os.makedirs(os.path.join(folder, "bin"))
        binary = os.path.join(folder, "bin", "efb")
        subprocess.run(["cp", OPTIONS["binary"], binary], check=True)
        # efb runs the whole program beside it for `web`.
        whole = os.path.join(os.path.dirname(os.path.realpath(OPTIONS["binary"])), "efb-full")
        subprocess.run(["cp", whole, os.path.join(folder, "bin", "efb-full")], check=True)
        result = subprocess.run([binary, "web", "--port", "0", "--memory-save"], stdin=subprocess.DEVNULL,
                                capture_output=True, timeout=60)
        self.assertEqual(result.returncode, 72, result.stderr.decode())
        self.assertEqual(result.stdout, b"", "no address is printed for a page that is not there")
        self.assertIn("the page is missing", result.stderr.decode())

    def screens_over_the_socket(self, seed: str, taps: int) -> List[Dict[str, Any]]:
        """The screens efb web shows for `taps` magic taps from the start, as its page receives them."""
        server = self.start("--seed", seed, "--locale", "en", "--hint-interval", "600")
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", f"/?token={server.token}")
        response = connection.getresponse()
        response.read()
        cookie = response.getheader("Set-Cookie").split(";")[0]
        connection.close()
        socket_ = WebSocket(server.port, cookie)
        self.addCleanup(socket_.close)
        screens: List[Dict[str, Any]] = []
        # The catch-up: the role, the engine's hello, then the state (its done is kept from the page).
        deadline = time.monotonic() + 15
        while not screens:
            self.assertLess(time.monotonic(), deadline, "no first screen over the WebSocket")
            screens += [e for e in socket_.events() if e["type"] == "screen"]
        for number in range(1, taps + 1):
            socket_.send(json.dumps({"type": "magicTap", "id": number}))
            done = False
            while not done:
                for event in socket_.events():
                    if event["type"] == "screen":
                        screens.append(event)
                    done = done or (event["type"] == "done" and event.get("replyTo") == number)
        return [self.comparable(e) for e in screens]

    def screens_through_the_pipe(self, seed: str, taps: int) -> List[Dict[str, Any]]:
        # The names the page gives its keys (Sources/efb/Web.swift), which the chapter pages list.
        keys = {"next": "Tab", "previous": "Shift+Tab", "activate": "Enter", "adjust": "Up and Down arrows",
                "magicTap": "Control+Alt+M", "escape": "Escape", "hint": "Control+Alt+H", "menu": "Control+Alt+L",
                "repeat": "Control+Alt+R"}
        # The version the page speaks (Sources/EscapeWeb/WebFrontEnd.swift).
        commands = [{"type": "hello", "id": "h", "protocol": [1, 3], "keys": keys}]
        commands += [{"type": "magicTap", "id": number} for number in range(1, taps + 1)]
        result = subprocess.run(
            [OPTIONS["binary"], "pipe", "--memory-save", "--seed", seed, "--locale", "en", "--hint-interval", "600"],
            input="".join(json.dumps(c) + "\n" for c in commands).encode(), capture_output=True, timeout=60,
        )
        events = [json.loads(line) for line in result.stdout.decode().splitlines() if line.strip()]
        return [self.comparable(e) for e in events if e["type"] == "screen"]

    @staticmethod
    def comparable(event: Dict[str, Any]) -> Dict[str, Any]:
        return {k: v for k, v in event.items() if k not in ("seq", "replyTo", "gen")}

    def test_the_same_seed_gives_the_same_game_as_efb_pipe(self) -> None:
        taps = 4  # three pages of the introduction and the first chapter's page: then its first level
        for seed in ("7", "8"):
            with self.subTest(seed=seed):
                web = self.screens_over_the_socket(seed, taps)
                pipe = self.screens_through_the_pipe(seed, taps)
                self.assertEqual(web[-1]["kind"], "level")
                self.assertEqual(web, pipe)
        # The seed matters to what is compared: the first level's answers come in another order.
        self.assertNotEqual(self.screens_through_the_pipe("7", taps)[-1], self.screens_through_the_pipe("8", taps)[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.environ.get("EFB_BINARY", os.path.join(ROOT, ".build", "debug", "efb")))
    parser.add_argument("--artifacts", default=os.path.join(ROOT, "artifacts", "browser"))
    arguments, rest = parser.parse_known_args()
    OPTIONS["binary"] = arguments.binary
    OPTIONS["artifacts"] = arguments.artifacts
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()
