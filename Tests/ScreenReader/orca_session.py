#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A real screen reader reading efb web: Orca 43 and Chromium under Xvfb, as text.

What Orca would say is read from its debug log (each utterance is a line `SPEECH OUTPUT: '...'`),
whether or not a synthesizer runs. The pieces, in the order that works (../shared notes, verified on
Debian 12):

- Xvfb on a free display (found with -displayfd), no window manager;
- the AT-SPI accessibility bus (at-spi-bus-launcher), on the private D-Bus session bus this process
  runs in (the tests are started under `dbus-run-session`, see Tests/ScreenReader/run);
- Orca with a private preferences folder and a debug file, from a copy of /usr/bin/orca in which the
  debug file is line-buffered (stock Orca writes it block-buffered, so utterances would land late);
- efb web, its standard input a pipe held here (its end stops the server), its output in files;
- Chromium as a normal window (not headless: headless has no AT-SPI tree) with renderer
  accessibility on, keys sent with xdotool after `windowfocus` (there is no window manager).

The harness waits on utterances: after a key, until the log has been quiet for a while (bounded),
never a fixed sleep. Every utterance of a run is kept in the artifacts folder.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable, List, Optional, Tuple

SPEECH = re.compile(r"^(\d\d:\d\d:\d\d\.\d+) - SPEECH OUTPUT: '(.*)'(\s?)(\{.*\})?$")
ORCA = "/usr/bin/orca"
CHROMIUM = "/usr/bin/chromium"
SPEECH_QUIET = 1.2


class Utterance:
    """One thing Orca said, with when the harness read it (monotonic seconds)."""

    def __init__(self, text: str, at: float) -> None:
        self.text = text
        self.at = at

    def __repr__(self) -> str:
        return repr(self.text)


def wait_until(what: str, condition: Callable[[], object], timeout: float, step: float = 0.05) -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)


def chords(keys: Tuple[str, ...]) -> List[str]:
    """xdotool's arguments pressing `keys` one after the other, each chord (ctrl+alt+m) as a hand does:
    the modifiers down, the key pressed and released, the modifiers up. (`xdotool key ctrl+alt+m` may
    release the modifiers before the key: Orca then takes the bare key's release for one of its own
    browse-mode commands, and ignores the focus move the page makes next.)"""
    arguments: List[str] = []
    for key in keys:
        *modifiers, last = key.split("+")
        for modifier in modifiers:
            arguments += ["keydown", "--delay", "30", modifier]
        arguments += ["key", "--delay", "60", last]
        for modifier in reversed(modifiers):
            arguments += ["keyup", "--delay", "30", modifier]
    return arguments


class Desktop:
    """Xvfb, the accessibility bus and Orca, for a whole run; Chromium and efb web come and go."""

    def __init__(self, folder: str, log_path: str) -> None:
        self.folder = folder
        self.log_path = log_path
        self.processes: List[subprocess.Popen] = []
        self.environment = dict(os.environ)
        if "DBUS_SESSION_BUS_ADDRESS" not in self.environment:
            raise RuntimeError("run under dbus-run-session (Tests/ScreenReader/run does)")
        for name in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            path = os.path.join(folder, name.lower())
            os.makedirs(path, mode=0o700, exist_ok=True)
            self.environment[name] = path
        os.chmod(self.environment["XDG_RUNTIME_DIR"], 0o700)
        self.environment.update({"ACCESSIBILITY_ENABLED": "1", "GTK_MODULES": "gail:atk-bridge",
                                 "NO_AT_BRIDGE": "0", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        self.environment.pop("WAYLAND_DISPLAY", None)
        self.utterances: List[Utterance] = []
        self.log_file = None
        self.log_buffer = ""
        self.transcript = open(log_path, "w", encoding="utf-8")

    def start(self) -> None:
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        os.close(write)
        self.processes.append(xvfb)
        ready, _, _ = select.select([read], [], [], 20)
        if not ready:
            raise RuntimeError("Xvfb did not start within 20 s")
        display = b""
        while not display.endswith(b"\n"):
            piece = os.read(read, 64)
            if not piece:
                raise RuntimeError("Xvfb stopped before it named its display")
            display += piece
        os.close(read)
        display = display.decode().strip()
        self.environment["DISPLAY"] = f":{display}"
        wait_until("the X display", lambda: subprocess.run(["xdpyinfo"], env=self.environment, stdout=subprocess.DEVNULL,
                                                            stderr=subprocess.DEVNULL).returncode == 0, 20)
        self.spawn(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], "at-spi")
        # Orca, line-buffered: a copy of its launcher with the debug file opened with buffering=1.
        with open(ORCA, encoding="utf-8") as file:
            launcher = file.read()
        # It also refuses to start beside another Orca of this user (found by process name): this one has
        # its own session bus and display, so it may run beside a player's own Orca.
        edits = {"open(args.debug_file, 'w')": "open(args.debug_file, 'w', buffering=1)",
                 "    if otherOrcas():\n        print(messages.CLI_OTHER_ORCAS_ERROR)": "    if False:\n        pass"}
        for old, new in edits.items():
            if old not in launcher:
                raise RuntimeError(f"{ORCA} is not the launcher this harness knows ({old!r}); update the harness")
            launcher = launcher.replace(old, new)
        copy = os.path.join(self.folder, "orca")
        with open(copy, "w", encoding="utf-8") as file:
            file.write(launcher)
        self.debug_path = os.path.join(self.folder, "orca-debug.log")
        preferences = os.path.join(self.folder, "orca-preferences")
        os.makedirs(preferences, exist_ok=True)
        self.spawn(["/usr/bin/python3", copy, "-u", preferences, "--debug-file", self.debug_path], "orca")
        wait_until("Orca's debug file", lambda: os.path.exists(self.debug_path), 30)
        self.log_file = open(self.debug_path, encoding="utf-8", errors="replace")
        self.wait_for(lambda u: u.text == "Screen reader on.", 60, "Orca to say 'Screen reader on.'")

    def spawn(self, arguments: List[str], name: str, environment: Optional[dict] = None) -> subprocess.Popen:
        log = open(os.path.join(self.folder, f"{name}.stderr"), "ab")
        process = subprocess.Popen(arguments, env=environment or self.environment, stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=log, start_new_session=True)
        log.close()
        self.processes.append(process)
        return process

    def stop(self) -> None:
        if self.transcript.closed:
            return
        # Each process leads a group of its own (its children go with it); one that does not (a group
        # gone already) is signalled alone, so stop never waits for a process it did not reach.
        def signal_all(process: subprocess.Popen, number: int) -> None:
            try:
                os.killpg(process.pid, number)
            except (ProcessLookupError, PermissionError):
                try:
                    process.send_signal(number)
                except ProcessLookupError:
                    pass

        for process in reversed(self.processes):
            if process.poll() is None:
                signal_all(process, signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                signal_all(process, signal.SIGKILL)
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    print(f"orca_session: process {process.pid} did not end after SIGKILL", file=sys.stderr)
        self.processes = []
        if self.log_file:
            self.log_file.close()
        self.transcript.close()

    # What Orca says.

    def poll(self) -> None:
        """Reads the utterances Orca logged since the last poll."""
        chunk = self.log_file.read()
        if not chunk:
            return
        self.log_buffer += chunk
        *lines, self.log_buffer = self.log_buffer.split("\n")
        now = time.monotonic()
        for line in lines:
            match = SPEECH.match(line)
            if not match:
                continue
            text = match.group(2)
            # A key's echo is logged with a space before the voice: 'tab ' {...}; it is not the page.
            if text.endswith(" ") and text.strip().lower() == text.strip().lower() and len(text.split()) <= 2:
                continue
            text = text.replace("\\'", "'")
            # French spacing's no-break spaces are heard as spaces; the tests compare with the
            # adventure file, which has plain ones.
            text = text.replace("\u00a0", " ").replace("\u202f", " ")
            if not text.strip():
                continue
            self.utterances.append(Utterance(text, now))
            self.transcript.write(f"{match.group(1)}  {text}\n")
        self.transcript.flush()

    def live_politeness(self, text: str) -> Optional[str]:
        """How Orca took the live region it read `text` from: the `container-live` ("polite",
        "assertive") of the last object event about `text` its debug log shows before the utterance, or
        None if no such event came before it."""
        def plain(line: str) -> str:
            return line.replace("\u00a0", " ").replace("\u202f", " ")

        politeness = None
        watching = False
        with open(self.debug_path, encoding="utf-8", errors="replace") as file:
            for line in file:
                if "OBJECT EVENT:" in line:
                    watching = text in plain(line)
                elif watching and (found := re.search(r"container-live:(\w+)", line)):
                    politeness = found.group(1)
                    watching = False
                elif "SPEECH OUTPUT:" in line and text in plain(line):
                    return politeness
        return None

    def note(self, text: str) -> None:
        """A line of the transcript that is not speech: what the test did."""
        self.transcript.write(f"# {text}\n")
        self.transcript.flush()

    def mark(self) -> int:
        self.poll()
        return len(self.utterances)

    def since(self, mark: int) -> List[str]:
        self.poll()
        return [u.text for u in self.utterances[mark:]]

    def wait_for(self, predicate: Callable[[Utterance], bool], timeout: float, what: str, mark: int = 0) -> Utterance:
        def found() -> Optional[Utterance]:
            self.poll()
            return next((u for u in self.utterances[mark:] if predicate(u)), None)
        return wait_until(what, found, timeout)

    def quiet(self, mark: int, quiet: float = SPEECH_QUIET, timeout: float = 12, first: float = 4) -> List[str]:
        """Waits until Orca has said something after `mark` (at most `first` seconds) and then nothing for
        `quiet` seconds (at most `timeout` in all); returns what it said after `mark`."""
        started = time.monotonic()
        while True:
            self.poll()
            now = time.monotonic()
            last = self.utterances[-1].at if len(self.utterances) > mark else None
            if last is None and now - started > first:
                return []
            if last is not None and now - max(last, started) >= quiet:
                return self.since(mark)
            if now - started > timeout:
                return self.since(mark)
            time.sleep(0.05)

    # Keys.

    def xdotool(self, *arguments: str) -> str:
        result = subprocess.run(["xdotool", *arguments], env=self.environment, capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(arguments)}: {result.stderr.strip()}")
        return result.stdout

    def key(self, *keys: str, quiet: float = SPEECH_QUIET) -> List[str]:
        """Presses `keys` (xdotool names, e.g. Tab, Return, ctrl+alt+h) and returns what Orca said."""
        mark = self.mark()
        self.note("key " + " ".join(keys))
        self.xdotool(*chords(keys))
        return self.quiet(mark, quiet)

    def type(self, text: str) -> List[str]:
        mark = self.mark()
        self.note(f"type {text!r}")
        self.xdotool("type", "--delay", "60", text)
        return self.quiet(mark, 0.8)


class Browser:
    """efb web and a Chromium window on it."""

    def __init__(self, desktop: Desktop, binary: str, arguments: List[str], name: str) -> None:
        self.desktop = desktop
        self.folder = tempfile.mkdtemp(prefix=f"{name}-", dir=desktop.folder)
        out = open(os.path.join(self.folder, "efb.stdout"), "wb")
        err = open(os.path.join(self.folder, "efb.stderr"), "wb")
        self.server = subprocess.Popen([binary, "web", "--port", "0", *arguments], stdin=subprocess.PIPE,
                                       stdout=out, stderr=err, start_new_session=True)
        out.close()
        err.close()
        self.url = wait_until("efb web's address", self.address, 20)
        self.chromium: Optional[subprocess.Popen] = None

    def address(self) -> Optional[str]:
        if self.server.poll() is not None:
            raise RuntimeError("efb web stopped: " + open(os.path.join(self.folder, "efb.stderr")).read())
        with open(os.path.join(self.folder, "efb.stdout")) as file:
            line = file.readline()
        return line.strip() if line.endswith("\n") else None

    def open(self, url: Optional[str] = None) -> None:
        profile = os.path.join(self.folder, "profile")
        self.desktop.note(f"open {url or self.url}")
        self.chromium = self.desktop.spawn(
            [CHROMIUM, "--no-sandbox", f"--user-data-dir={profile}", "--force-renderer-accessibility", "--no-first-run",
             "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage", "--window-position=0,0",
             "--window-size=1280,1000", "--disable-features=Translate,MediaRouter", "--password-store=basic",
             "--mute-audio", url or self.url],
            "chromium")
        window = wait_until("Chromium's window", self.window, 30)
        self.desktop.xdotool("windowfocus", "--sync", window)

    def window(self) -> Optional[str]:
        result = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "chromium"], env=self.desktop.environment,
                                capture_output=True, text=True)
        windows = result.stdout.split()
        return windows[-1] if windows else None

    def stop_server(self) -> None:
        """Stops efb web alone (its page stays open and reconnects in vain)."""
        if self.server.poll() is None:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait(timeout=10)

    def close(self) -> None:
        for process in (self.chromium, self.server):
            if process is None or process.poll() is not None:
                continue
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self.chromium in self.desktop.processes:
            self.desktop.processes.remove(self.chromium)
        if self.server.stdin:
            self.server.stdin.close()
        shutil.rmtree(os.path.join(self.folder, "profile"), ignore_errors=True)
