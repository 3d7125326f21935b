#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Self-test of efb_client.py (and whole games by bot.py, in protocol 1.1 and 1.0) against the
built engine.

    python3 clients/python/test_client.py [-v]

The engine is $EFB_BINARY, else the efb of `swift build --show-bin-path` (the build the other
tests use), else .build/release/efb or .build/debug/efb; with none, the run fails. A few tests use small fake engines (Python scripts) to check how the client
reports broken output, a dead engine and a silent one.
"""

import json
import os
import select
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bot  # noqa: E402
import efb_client  # noqa: E402
from efb_client import (  # noqa: E402
    BatchError,
    Engine,
    EngineError,
    EngineExited,
    EnginePool,
    EngineTimeout,
    ProtocolViolation,
    Reply,
    chapter_progress,
    protocol_field,
)
from testsupport import BINARY, require_binary  # noqa: E402

GAME = ["--seed", "1", "--clock", "virtual", "--memory-save"]
# The real clock, with a hint unlocking every 0.2 s.
REAL = ["--seed", "1", "--clock", "real", "--memory-save", "--hint-interval", "0.2"]


def setUpModule():
    # No engine is a failure, never a skip: without it most of these tests would prove nothing.
    require_binary()
    os.environ["EFB_BINARY"] = BINARY  # for the client's own search, in Engine() and bot.run()


def fake_engine(body: str) -> str:
    """Writes an executable Python script standing in for efb; returns its path."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    handle.write("#!" + sys.executable + "\nimport sys, time, json\n" + textwrap.dedent(body))
    handle.close()
    os.chmod(handle.name, os.stat(handle.name).st_mode | stat.S_IXUSR)
    return handle.name


def walk_until(engine, arrived, limit=60):
    """Plays (with the reference bot) until ``arrived(engine)``; returns the bot."""
    player = bot.Bot(engine)
    for _ in range(limit):
        if arrived(engine):
            return player
        if engine.screen["kind"] == "level":
            if not player.solve_level():
                raise AssertionError(f"the bot could not solve {engine.screen['screen']}")
        else:
            player.turn_page()
    raise AssertionError("never arrived")


def with_trait(trait):
    """A screen holding an element with this trait."""
    return lambda engine: any(trait in e.get("traits", []) for e in engine.model.elements)


HELLO_LINE = (
    '{"adventure":{"id":"x","title":"X"},"capabilities":[],"engine":"0","gen":0,'
    '"locale":"en","protocol":1,"seq":1,"type":"hello"}'
)


class HandshakeTests(unittest.TestCase):
    def test_opening_and_hello(self):
        with Engine(GAME) as engine:
            self.assertEqual([e["type"] for e in engine.opening], ["hello", "screen", "focus", "progress"])
            self.assertEqual(engine.hello["replyTo"], "hello")
            self.assertEqual(engine.hello["protocol"], 1)
            self.assertIn("rotors", engine.capabilities)
            self.assertEqual(engine.screen["kind"], "intro")
            self.assertEqual(engine.focus["index"], 1)
            self.assertEqual(engine.unsolicited, [])

    def test_negotiated_hello_sees_the_engine_capabilities_first(self):
        seen = []

        def negotiate(engine_hello):
            seen.append(engine_hello)
            return {"client": "negotiating test", "want": ["validActions"]}

        with Engine(GAME, hello=negotiate) as engine:
            self.assertEqual(seen[0]["type"], "hello")
            self.assertNotIn("replyTo", seen[0])
            self.assertEqual(engine.opening[0], seen[0])
            reply = engine.send({"type": "next"})
            # An engine without the feature ignores "want" (engines before valid actions did).
            self.assertIn([e["type"] for e in reply], (["focus", "validActions", "done"], ["focus", "done"]))

    def test_without_hello_the_opening_is_unsolicited(self):
        with Engine(GAME, hello=False) as engine:
            reply = engine.send({"type": "ping"})
            self.assertEqual([e["type"] for e in reply], ["done"])
            self.assertEqual([e["type"] for e in engine.unsolicited], ["hello", "screen", "focus", "progress"])
            self.assertEqual(engine.opening, [])


class ConversationTests(unittest.TestCase):
    def setUp(self):
        self.engine = Engine(GAME)

    def tearDown(self):
        self.engine.close()

    def test_send_assigns_ids_and_ends_with_done(self):
        first = self.engine.send({"type": "next"})
        second = self.engine.send({"type": "next"})
        self.assertIsInstance(first, Reply)
        self.assertEqual(first[-1]["type"], "done")
        self.assertNotEqual(first.id, second.id)
        self.assertTrue(all(e["replyTo"] == first.id for e in first))
        self.assertEqual(first.first("focus")["index"], 2)
        self.assertEqual(first.of_type("focus"), [first[0]])
        self.assertEqual(first.gen, first.done["gen"])
        self.assertTrue(first.ok)
        self.assertEqual(first.errors, [])

    def test_string_ids_are_echoed(self):
        reply = self.engine.send({"type": "state", "id": "my-state"})
        self.assertEqual(reply.id, "my-state")
        self.assertEqual({e["replyTo"] for e in reply}, {"my-state"})
        self.assertEqual([e["type"] for e in reply], ["screen", "focus", "progress", "done"])

    def test_error_raises_engine_error_when_checked(self):
        with self.assertRaises(EngineError) as caught:
            self.engine.send({"type": "focus", "element": "nowhere"})
        self.assertEqual(caught.exception.code, "invalid_params")
        self.assertEqual(caught.exception.field, "element")
        self.assertIn("nowhere", caught.exception.message)
        self.assertEqual(caught.exception.reply[-1]["type"], "done")
        # The conversation goes on.
        self.assertEqual(self.engine.ping()[-1]["type"], "done")

    def test_error_is_returned_when_not_checked(self):
        reply = self.engine.send({"type": "rotor", "direction": "sideways"}, check=False)
        self.assertEqual(reply.errors[0]["code"], "invalid_params")
        self.assertEqual(reply.errors[0]["field"], "direction")
        self.assertFalse(reply.ok)

    def test_send_many_pipelines_in_order(self):
        commands = [{"type": "next"}, {"type": "previous"}, {"type": "last"}, {"type": "first"}]
        replies = self.engine.send_many(commands)
        self.assertEqual([r.first("focus")["index"] for r in replies], [2, 1, 3, 1])

    def test_a_long_pipeline_does_not_deadlock(self):
        commands = [{"type": "next" if i % 2 else "previous"} for i in range(5000)]
        replies = self.engine.send_many(commands)
        self.assertEqual(len(replies), 5000)
        self.assertTrue(all(r[-1]["type"] == "done" for r in replies))

    def test_write_then_events_until_done(self):
        first = self.engine.write({"type": "next"})
        second = self.engine.write({"type": "next"})
        later = self.engine.events_until_done(second)  # the first reply is kept for later
        earlier = self.engine.events_until_done(first)
        self.assertEqual(earlier.first("focus")["index"], 2)
        self.assertEqual(later.first("focus")["index"], 3)

    def test_raw_lines_get_their_error(self):
        reply = self.engine.send_raw("{not json")
        self.assertEqual(reply.errors[0]["code"], "malformed_json")
        self.assertIsNone(reply.id)
        reply = self.engine.send_raw('{"type":"fly","id":"f"}')
        self.assertEqual(reply.id, "f")
        self.assertEqual(reply.errors[0]["code"], "unknown_command")

    def test_quit_reply_holds_bye(self):
        reply = self.engine.close()
        self.assertEqual([e["type"] for e in reply], ["ended", "done", "bye"])
        self.assertEqual(reply.first("ended")["reason"], "quit")
        self.assertIsNone(self.engine.close())
        with self.assertRaises(EngineExited):
            self.engine.send({"type": "ping"})

    def test_snapshot_and_restore(self):
        reply = self.engine.send({"type": "snapshot"}, check=False)
        if reply.errors and reply.errors[0]["code"] == "unknown_command":
            self.skipTest("this engine has no snapshot command")
        snapshot = reply.first("snapshot")
        self.engine.send({"type": "next"})
        self.engine.send({"type": "restore", "blob": snapshot["blob"]})
        state = self.engine.state()
        self.assertEqual(state.first("focus")["index"], 1)


class TextTests(unittest.TestCase):
    def test_typed_text_with_line_separators_round_trips(self):
        text = "a\u2028b\u2029c\u0085d \u00e9\U0001F600 \"quoted\" \\ /"
        with Engine(GAME + ["--hints-at-once"], hello={"want": ["validActions"]}) as engine:
            # Walk to the first open question the way a player would: the bot knows how.
            walk_until(engine, with_trait("textField"))
            field = next(e["id"] for e in engine.screen["elements"] if "textField" in e["traits"])
            reply = engine.send({"type": "input", "text": text, "element": field})
            self.assertEqual(reply.first("announce")["text"], text)
            # 1.1 reports the typed text as an elementChanged (1.0 as a second focus).
            self.assertEqual(reply.element(field)["value"], text)
            self.assertEqual(engine.model.element(field)["value"], text)


class JSONTests(unittest.TestCase):
    """Lines are read and written with orjson when it is installed, else with json: both give the
    same lines and the same events."""

    COMMANDS = [
        {"type": "next"},
        {"type": "input", "element": "answer", "text": "café \u2028 \" \\ \n \x01 \x7f é\u0301 😀", "id": "ü"},
        {"type": "batch", "id": 7, "game": 3, "commands": [{"type": "wait", "ms": 0}, {"type": "validActions"}]},
        {"type": "hello", "protocol": {"min": [1, 0], "max": [1, 2]}, "want": [], "timePressure": False, "x": None},
        {"type": "wait", "ms": -1, "big": 2**63 - 1, "float": 0.5},
    ]

    def test_command_lines_are_json_s_lines(self):
        for command in self.COMMANDS:
            expected = json.dumps(command, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
            self.assertEqual(efb_client.command_line(command), expected)
        # What orjson does not write (an integer beyond 64 bits) json still writes.
        self.assertEqual(efb_client.command_line({"type": "wait", "ms": 2**70}), b'{"type":"wait","ms":%d}\n' % 2**70)

    def test_orjson_is_used_when_installed(self):
        try:
            import orjson
        except ImportError:
            self.skipTest("orjson is not installed")
        self.assertIs(efb_client._loads, orjson.loads)

    def test_both_readers_give_the_same_game(self):
        def play():
            with Engine(GAME, BINARY, check=False) as engine:
                replies = engine.send_many([{"type": "next"}] * 3 + [{"type": "activate"}, {"type": "state"}])
                return engine.opening, replies, engine.model.screen

        fast = play()
        saved = efb_client._loads
        efb_client._loads = json.loads
        try:
            plain = play()
        finally:
            efb_client._loads = saved
        self.assertEqual(fast, plain)


class ProtocolFieldTests(unittest.TestCase):
    def test_what_hello_offers(self):
        self.assertEqual(protocol_field(), {"min": [1, 0], "max": [1, 3]})
        self.assertEqual(protocol_field((1, 1)), [1, 1])
        self.assertEqual(protocol_field("1.1"), [1, 1])
        # 1.0 is the integer every protocol 1 engine understands.
        self.assertEqual(protocol_field((1, 0)), 1)
        self.assertEqual(protocol_field("1.0"), 1)
        self.assertEqual(protocol_field(1), 1)
        self.assertEqual(protocol_field([(1, 0), (1, 1)]), [[1, 0], [1, 1]])
        self.assertEqual(protocol_field({"min": (1, 1), "max": (1, 1)}), {"min": [1, 1], "max": [1, 1]})
        with self.assertRaises(ValueError):
            protocol_field("one")


class NegotiationTests(unittest.TestCase):
    def test_by_default_1_1_is_agreed(self):
        with Engine(GAME, hello={"want": ["validActions", "no-such-thing"]}) as engine:
            self.assertEqual(engine.protocol_offered, {"min": [1, 0], "max": [1, 3]})
            # The opening hello is still 1.0: a session speaks 1.0 until a hello agrees on 1.1.
            self.assertEqual(engine.opening[0]["version"], [1, 0])
            self.assertEqual(engine.version, (1, 3))
            self.assertTrue(engine.speaks(1, 1))
            self.assertIn((1, 0), engine.versions)
            self.assertIn((1, 1), engine.versions)
            self.assertEqual(engine.granted_want, ["validActions"])
            for capability in ("elementChanged", "idle", "timer", "cancel"):
                self.assertIn(capability, engine.capabilities)
            reply = engine.send({"type": "escape"})  # skip the intro: sounds, screen, focus
            self.assertIn("sound", [e["type"] for e in reply])
            self.assertTrue(all(isinstance(e.get("gen"), int) for e in reply), reply)
            self.assertEqual(engine.gen, reply.gen)

    def test_omit_leaves_out_the_cues_and_verdicts(self):
        with Engine(GAME, hello={"omit": ["sound", "result", "done"]}) as engine:
            self.assertEqual(engine.granted_omit, ["sound", "result"])
            reply = engine.send({"type": "escape"})  # skip the intro: no sounds now, a screen, a focus
            self.assertEqual([e["type"] for e in reply], ["screen", "focus", "done"])
            seqs = [e["seq"] for e in reply]
            self.assertEqual(seqs, list(range(seqs[0], seqs[0] + 3)))
        with Engine(GAME) as engine:
            self.assertEqual(engine.granted_omit, [])

    def test_exactly_1_1(self):
        with Engine(GAME, protocol=(1, 1)) as engine:
            self.assertEqual(engine.protocol_offered, [1, 1])
            self.assertEqual(engine.version, (1, 1))

    def test_asking_for_1_0(self):
        with Engine(GAME, protocol=(1, 0)) as engine:
            self.assertEqual(engine.protocol_offered, 1)
            self.assertEqual(engine.version, (1, 0))
            self.assertFalse(engine.speaks(1, 1))
            self.assertNotIn("elementChanged", engine.capabilities)
            reply = engine.send({"type": "escape"})
            # 1.0 puts gen on screen, focus and done, not on sounds.
            self.assertNotIn("gen", reply.first("sound"))
            self.assertIn("gen", reply.first("focus"))
            with self.assertRaises(ValueError):
                engine.read_until_idle(0)

    def test_no_version_in_common(self):
        with self.assertRaises(EngineError) as caught:
            Engine(GAME, protocol=(2, 0))
        self.assertEqual(caught.exception.code, "unsupported_protocol")
        self.assertEqual(caught.exception.field, "protocol")
        with Engine(GAME, protocol=(2, 0), check=False) as engine:
            self.assertEqual(engine.version, (1, 0))  # the engine carries on in what it spoke


class SharedGameTests(unittest.TestCase):
    """Joining a game ``efb serve`` shares (``Engine(socket=...)``), in the version each client asks."""

    def setUp(self):
        folder = tempfile.mkdtemp(prefix="efb-py-serve-")
        os.chmod(folder, 0o700)
        self.path = os.path.join(folder, "game.sock")
        self.server = subprocess.Popen(
            [require_binary(), "serve", "--socket", self.path, *GAME],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        said = b""
        deadline = time.monotonic() + 60
        # The socket is made at bind, before listen: efb serve says when it listens.
        while b"the game is served on" not in said:
            self.assertLess(time.monotonic(), deadline, "efb serve did not say it listens")
            readable, _, _ = select.select([self.server.stderr], [], [], 1)
            if readable:
                chunk = os.read(self.server.stderr.fileno(), 4096)
                self.assertTrue(chunk, "efb serve exited: " + said.decode(errors="replace"))
                said += chunk

    def tearDown(self):
        if self.server.poll() is None:
            self.server.terminate()
        self.server.wait(timeout=30)
        self.server.stderr.close()

    def test_chapter_ids_over_the_socket(self):
        controller = Engine(socket=self.path, timeout=30)
        observer = Engine(socket=self.path, timeout=30)
        older = Engine(socket=self.path, timeout=30, protocol=(1, 1))
        try:
            self.assertIsNone(controller.pid)
            self.assertEqual([e["type"] for e in observer.opening][:2], ["hello", "role"])
            self.assertEqual(controller.version, (1, 3))
            self.assertEqual(observer.version, (1, 3))
            self.assertEqual(older.version, (1, 1))
            self.assertIn("chapterIds", observer.capabilities)
            # Joining was in 1.1; the state asked again says each chapter's progress at once.
            self.assertTrue(chapter_progress(observer.progress))
            self.assertEqual(chapter_progress(older.progress), [])
            reply = controller.batch([{"type": "escape"}, {"type": "activate", "element": "begin"}])
            self.assertEqual(reply.last("screen")["chapterId"], "cellar")
            # The observers follow the controller's moves, each in its own version.
            observer.read_until_idle(30)
            self.assertEqual(observer.screen["screen"], controller.screen["screen"])
            self.assertEqual(observer.screen["chapterId"], "cellar")
            older.read_until_idle(30)
            self.assertEqual(older.screen["screen"], controller.screen["screen"])
            self.assertNotIn("chapterId", older.screen)
            # An observer's quit is answered with done, then bye, like any quit (before: bye alone,
            # and the client raised EngineExited waiting for the done).
            left = observer.send({"type": "quit"})
            self.assertEqual([e["type"] for e in left], ["done", "bye"])
            observer.close()
            controller.ping()  # the game goes on without the observer
            reply = controller.send({"type": "quit"})
            self.assertEqual(reply[-1]["type"], "bye")
        finally:
            for client in (controller, observer, older):
                client.close()
        self.assertEqual(self.server.wait(timeout=30), 0)


class SocketOwnerTests(unittest.TestCase):
    """The client says nothing to a socket another user serves (checked with SO_PEERCRED)."""

    @unittest.skipUnless(hasattr(os, "geteuid") and os.geteuid() == 0, "needs root, to listen as another user")
    def test_a_socket_served_by_another_user_is_refused_before_a_word(self):
        import socket as sockets

        folder = tempfile.mkdtemp(prefix="efb-py-planted-")
        os.chmod(folder, 0o777)
        path = os.path.join(folder, "game.sock")
        ready_read, ready_write = os.pipe()
        heard_read, heard_write = os.pipe()
        child = os.fork()
        if child == 0:  # another user's server: it listens, then reports what a client said
            try:
                os.close(ready_read)
                os.close(heard_read)
                os.setgid(65534)
                os.setuid(65534)  # nobody
                server = sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
                server.bind(path)
                server.listen(1)
                os.write(ready_write, b"1")
                connection, _ = server.accept()
                connection.settimeout(3)
                try:
                    said = connection.recv(4096)
                except OSError:
                    said = b""
                os.write(heard_write, said or b"-")
            finally:
                os._exit(0)
        os.close(ready_write)
        os.close(heard_write)
        try:
            self.assertEqual(os.read(ready_read, 1), b"1")
            with self.assertRaises(efb_client.ServedByAnotherUser) as caught:
                Engine(socket=path, timeout=10)
            self.assertEqual(caught.exception.owner, 65534)
            self.assertIn("another user (uid 65534)", str(caught.exception))
            self.assertEqual(os.read(heard_read, 4096), b"-", "the client spoke to another user's server")
        finally:
            os.waitpid(child, 0)
            os.close(ready_read)
            os.close(heard_read)


class ModelTests(unittest.TestCase):
    def assert_model_is_the_engine_view(self, engine):
        """The model, kept from events, equals what ``state`` sends whole."""
        elements = [dict(e) for e in engine.model.elements]
        focused = dict(engine.model.focused)
        state = engine.state()
        self.assertEqual(elements, state.first("screen")["elements"])
        self.assertEqual(focused, state.first("focus")["element"])

    def test_counters_of_changes_and_elements_kept_as_they_are(self):
        model = efb_client.ScreenModel()
        first = {"id": "a", "label": "A", "traits": ["button"]}
        model.apply({"type": "screen", "screen": "s", "elements": [first, {"id": "b", "label": "B"}]})
        self.assertEqual((model.changes, model.element_changes), (1, 1))
        kept = model.elements[0]
        # A focus repeating the element as it is moves the focus only: the element stays the same dict.
        model.apply({"type": "focus", "screen": "s", "index": 1, "element": dict(first)})
        self.assertEqual((model.changes, model.element_changes), (2, 1))
        self.assertIs(model.elements[0], kept)
        changed = dict(first, value="on")
        self.assertTrue(model.apply({"type": "elementChanged", "element": changed}))
        self.assertEqual((model.changes, model.element_changes), (3, 2))
        self.assertEqual(model.elements[0], changed)
        self.assertEqual(model.focused, changed)
        self.assertFalse(model.apply({"type": "elementChanged", "element": {"id": "b", "label": "B"}}))
        self.assertEqual((model.changes, model.element_changes), (3, 2))

    def test_typing_changes_the_field_in_the_model(self):
        with Engine(GAME + ["--hints-at-once"]) as engine:
            walk_until(engine, with_trait("textField"))
            field = next(e["id"] for e in engine.model.elements if "textField" in e["traits"])
            engine.send({"type": "focus", "element": field})
            gen = engine.gen
            reply = engine.send({"type": "input", "text": "lantern"})
            # 1.1: the change is an elementChanged, and focus is not sent (the focus did not move).
            self.assertEqual([e["type"] for e in reply], ["announce", "elementChanged", "done"])
            changed = reply.first("elementChanged")
            self.assertEqual(changed["element"]["id"], field)
            self.assertEqual(changed["element"]["value"], "lantern")
            self.assertEqual(changed["gen"], gen + 1)
            self.assertEqual(reply.changed_elements, [changed["element"]])
            self.assertEqual(engine.model.element(field)["value"], "lantern")
            self.assertEqual(engine.focus["element"]["value"], "lantern")
            self.assertEqual(engine.model.gen, gen + 1)
            self.assert_model_is_the_engine_view(engine)

    def test_turning_a_dial_in_both_versions(self):
        for protocol in ((1, 1), (1, 0)):
            with self.subTest(protocol=protocol), Engine(GAME + ["--hints-at-once"], protocol=protocol) as engine:
                walk_until(engine, with_trait("adjustable"))
                dials = [e["id"] for e in engine.model.elements if "adjustable" in e["traits"]]
                first, other = dials[0], dials[-1]
                engine.send({"type": "focus", "element": other})
                before = {dial: engine.model.element(dial)["value"] for dial in dials}
                reply = engine.send({"type": "adjust", "element": first, "direction": "increment"})
                turned = reply.element(first)["value"]
                self.assertNotEqual(turned, before[first])
                self.assertEqual(engine.model.element(first)["value"], turned)
                self.assertEqual(engine.model.focused_id, first)  # the aimed gesture moved the focus
                self.assertEqual(engine.focus["element"]["value"], turned)
                for dial in dials[1:]:
                    self.assertEqual(engine.model.element(dial)["value"], before[dial])
                kinds = [e["type"] for e in reply]
                if protocol == (1, 1):
                    self.assertEqual(kinds.count("elementChanged"), 1)
                    self.assertEqual(kinds.count("focus"), 1)  # only the focus moving
                else:
                    self.assertNotIn("elementChanged", kinds)
                self.assert_model_is_the_engine_view(engine)

    def test_a_timed_level_sends_its_timer(self):
        with Engine(GAME + ["--hints-at-once"]) as engine:
            walk_until(engine, lambda e: e.timer is not None)
            timer = engine.timer
            self.assertFalse(timer.paused)
            self.assertGreater(timer.limit_ms, 0)
            self.assertEqual(timer.remaining_ms, timer.limit_ms)
            self.assertEqual(timer.remaining_now(), timer.remaining_ms)  # the virtual clock stands still
            engine.send({"type": "wait", "ms": 1000})
            engine.send({"type": "menu"})
            self.assertTrue(engine.timer.paused)
            self.assertEqual(engine.timer.remaining_ms, timer.limit_ms - 1000)
            engine.send({"type": "escape"})
            self.assertFalse(engine.timer.paused)


class RealClockTests(unittest.TestCase):
    def test_idle_ends_an_unsolicited_hint(self):
        with Engine(REAL, timeout=5) as engine:
            self.assertIsNone(engine.read_until_idle(timeout=0.3))  # the intro gives no hints
            engine.send({"type": "escape"})  # the chapter page
            engine.send({"type": "activate", "element": "begin"})  # a level with hints
            gen = engine.gen
            started = time.monotonic()
            burst = engine.read_until_idle(timeout=3)
            self.assertLess(time.monotonic() - started, 2)
            self.assertIsNotNone(burst)
            self.assertEqual(burst[-1]["type"], "idle")
            self.assertIs(engine.last_idle, burst[-1])
            self.assertIn(("sound", "hint"), [(e["type"], e.get("name")) for e in burst])
            self.assertTrue(all("replyTo" not in e for e in burst))
            # Time passing does not change gen.
            self.assertEqual({e["gen"] for e in burst}, {gen})
            self.assertEqual(engine.gen, gen)
            self.assertEqual(engine.unsolicited, [])

    def test_cancel_ends_a_long_wait(self):
        with Engine(REAL, timeout=5) as engine:
            started = time.monotonic()
            wait_id = engine.wait(60_000, block=False)
            ping_id = engine.write({"type": "ping"})  # kept until the wait ends
            cancel = engine.cancel(wait_id)
            self.assertTrue(cancel.ok)
            waited = engine.events_until_done(wait_id)
            pinged = engine.events_until_done(ping_id)
            self.assertLess(time.monotonic() - started, 3)
            # The wait, then the cancel ahead of the ping written before it.
            self.assertLess(waited.done["seq"], cancel.done["seq"])
            self.assertLess(cancel.done["seq"], pinged.done["seq"])
            refused = engine.cancel(wait_id, check=False)
            self.assertEqual(refused.errors[0]["code"], "not_now")
            self.assertEqual(refused.errors[0]["field"], "target")


class BatchTests(unittest.TestCase):
    def test_a_batch_is_all_or_nothing(self):
        with Engine(GAME) as engine:
            gen, index = engine.gen, engine.focus["index"]
            commands = [{"type": "next"}, {"type": "focus", "element": "nowhere"}]
            with self.assertRaises(BatchError) as caught:
                engine.batch(commands)
            failure = caught.exception
            self.assertEqual((failure.index, failure.inner_field, failure.code), (1, "element", "invalid_params"))
            self.assertEqual(failure.command, commands[1])
            self.assertEqual([e["type"] for e in failure.reply], ["error", "done"])
            self.assertEqual(failure.reply.batch_failure, (1, "element"))
            self.assertEqual((engine.gen, engine.focus["index"]), (gen, index))  # the next did not happen
            self.assertEqual(engine.state().first("focus")["index"], index)

    def test_a_stale_batched_if_gen(self):
        with Engine(GAME) as engine:
            gen = engine.gen
            reply = engine.batch([{"type": "next", "ifGen": gen}, {"type": "next", "ifGen": gen}], check=False)
            self.assertEqual(reply.errors[0]["code"], "stale")
            self.assertEqual(reply.batch_failure, (1, "ifGen"))
            self.assertEqual(engine.gen, gen)
            reply = engine.batch([{"type": "next", "ifGen": gen}, {"type": "next", "ifGen": gen + 1}])
            self.assertEqual([e["index"] for e in reply.of_type("focus")], [2, 3])
            self.assertEqual(engine.focus["index"], 3)
            with self.assertRaises(ValueError):
                engine.batch([{"type": "next", "id": 7}])

    def test_a_batch_ending_with_quit_holds_bye(self):
        # The quit inside the batch is seen from its ended event (reason quit), not from the batch's
        # own type: the reply still waits for the bye that follows the done.
        engine = Engine(GAME)
        try:
            reply = engine.batch([{"type": "next"}, {"type": "quit"}])
            self.assertEqual([e["type"] for e in reply][-3:], ["ended", "done", "bye"])
            self.assertEqual(reply.first("ended")["reason"], "quit")
            self.assertTrue(engine._bye)
            self.assertFalse(engine._quit_ended)
        finally:
            engine.kill()


class EndTests(unittest.TestCase):
    def test_engine_killed_mid_conversation(self):
        engine = Engine(GAME, stderr="capture")
        engine.process.kill()
        engine.process.wait()
        with self.assertRaises(EngineExited) as caught:
            engine.send({"type": "ping"})
        self.assertEqual(caught.exception.returncode, -9)
        engine.close()

    def test_bad_arguments_exit_with_stderr(self):
        with self.assertRaises(EngineExited) as caught:
            Engine(["--no-such-option"], stderr="capture")
        self.assertNotEqual(caught.exception.returncode, 0)
        self.assertIn("no-such-option", caught.exception.stderr)


class FakeEngineTests(unittest.TestCase):
    def assert_violation(self, path):
        """Starting an engine whose output breaks the protocol raises ProtocolViolation."""
        try:
            with self.assertRaises(ProtocolViolation):
                Engine(binary=path)
        finally:
            os.unlink(path)

    def test_a_line_that_is_not_json(self):
        path = fake_engine(
            f"""
            print({HELLO_LINE!r}, flush=True)
            for line in sys.stdin:
                print("debug: got a command", flush=True)
            """
        )
        try:
            with self.assertRaises(ProtocolViolation) as caught:
                Engine(binary=path)
            self.assertIn(b"debug", caught.exception.line)
        finally:
            os.unlink(path)

    def test_seq_going_back(self):
        path = fake_engine(
            f"""
            print({HELLO_LINE!r}, flush=True)
            for line in sys.stdin:
                command = json.loads(line)
                print(json.dumps({{"type": "done", "seq": 1, "gen": 0, "replyTo": command["id"]}}), flush=True)
            """
        )
        self.assert_violation(path)

    def test_a_done_for_an_unknown_id(self):
        path = fake_engine(
            f"""
            print({HELLO_LINE!r}, flush=True)
            for line in sys.stdin:
                print(json.dumps({{"type": "done", "seq": 2, "gen": 0, "replyTo": "someone else"}}), flush=True)
            """
        )
        self.assert_violation(path)

    def test_a_silent_engine_times_out(self):
        path = fake_engine(
            """
            time.sleep(30)
            """
        )
        try:
            started = time.monotonic()
            with self.assertRaises(EngineTimeout):
                Engine(binary=path, timeout=0.3)
            self.assertLess(time.monotonic() - started, 5)
        finally:
            os.unlink(path)

    def test_an_engine_that_dies_reports_its_stderr(self):
        path = fake_engine(
            """
            sys.stderr.write("efb: the adventure cannot be played\\n")
            sys.exit(65)
            """
        )
        try:
            with self.assertRaises(EngineExited) as caught:
                Engine(binary=path, stderr="capture")
            self.assertEqual(caught.exception.returncode, 65)
            self.assertIn("cannot be played", caught.exception.stderr)
        finally:
            os.unlink(path)

    def test_unknown_events_and_fields_are_kept(self):
        path = fake_engine(
            f"""
            print({HELLO_LINE!r}, flush=True)
            seq = 1
            for line in sys.stdin:
                command = json.loads(line)
                events = [{{"type": "sparkle", "colour": "blue"}}, {{"type": "done", "gen": 0, "later": [1]}}]
                if command["type"] == "quit":
                    events.append({{"type": "bye"}})
                for event in events:
                    seq += 1
                    print(json.dumps(dict(event, seq=seq, replyTo=command["id"])), flush=True)
            """
        )
        try:
            with Engine(binary=path) as engine:
                reply = engine.ping()
                self.assertEqual(reply.first("sparkle")["colour"], "blue")
                self.assertEqual(reply.done["later"], [1])
                self.assertEqual(engine.version, (1, 0))  # a hello without version speaks 1.0
        finally:
            os.unlink(path)

    def test_half_a_line_at_the_end(self):
        path = fake_engine(
            """
            sys.stdout.write('{"type":"hel')
            sys.stdout.flush()
            """
        )
        self.assert_violation(path)


class BotTests(unittest.TestCase):
    def test_the_bot_escapes(self):
        # ("on" is "auto" with this engine, which lists the capability.)
        for protocol, mode in (("1.1", "auto"), ("1.1", "off"), ("1.0", "auto")):
            with self.subTest(protocol=protocol, valid_actions=mode):
                ok, summary, player = bot.run(seed=3, valid_actions=mode, protocol=protocol)
                self.assertTrue(ok, summary)
                self.assertEqual(len(player.solved), player.total_levels)
                self.assertEqual(player.ended["reason"], "escaped")
                self.assertEqual("%d.%d" % player.engine.version, protocol)
                # ifGen guards the bot's gestures in 1.1, and never went stale.
                self.assertEqual(player.guarded > 0, protocol == "1.1")
                self.assertEqual(player.stale, 0)



class PoolTests(unittest.TestCase):
    """``efb pipe --games N`` through :class:`EnginePool` (protocol section 13)."""

    def test_each_game_is_an_engine_of_its_own(self):
        with EnginePool(3, ["--seed", "4", "--clock", "virtual"], BINARY, protocol=(1, 1), check=False) as pool:
            self.assertEqual([game.game for game in pool.games], [0, 1, 2])
            self.assertTrue(all(game.version == (1, 1) for game in pool.games))
            self.assertTrue(all(game.screen["screen"] == "intro-1" for game in pool.games))
            self.assertEqual([game.hello.get("games") for game in pool.games], [3, 3, 3])
            self.assertEqual([[e["type"] for e in game.opening] for game in pool.games],
                             [["hello", "screen", "focus", "progress"]] * 3)
            # Each game counts its own seq and ids.
            replies = [game.send({"type": "next", "id": 1}) for game in pool.games]
            self.assertTrue(all(reply.first("done")["game"] == number for number, reply in enumerate(replies)))
            self.assertEqual({reply.first("done")["seq"] for reply in replies}, {replies[0].first("done")["seq"]})
            # Game 2 alone skips its intro.
            pool.games[2].send({"type": "escape"})
            self.assertEqual([game.screen["screen"] for game in pool.games], ["intro-1", "intro-1", "chapter-cellar"])
            # Its game: as an engine of its own with seed 4 + 2 would play it.
            with Engine(["--seed", "6", "--clock", "virtual", "--memory-save"], BINARY, protocol=(1, 1)) as alone:
                alone.send({"type": "next", "id": 1})
                alone.send({"type": "escape"})
                self.assertEqual(alone.screen, {k: v for k, v in pool.games[2].screen.items() if k != "game"})
                blob = pool.games[2].send({"type": "snapshot"}).first("snapshot")["blob"]
                self.assertEqual(alone.send({"type": "snapshot"}).first("snapshot")["blob"], blob)

    def test_corked_lines_of_every_game_go_in_one_write(self):
        with EnginePool(8, ["--clock", "virtual"], BINARY, check=False) as pool:
            pool.cork()
            ids = [game.write({"type": "validActions"}) for game in pool.games]
            self.assertTrue(pool._outgoing)  # nothing written yet
            pool.flush()
            self.assertFalse(pool._outgoing)
            for game, request_id in zip(pool.games, ids):
                reply = game.events_until_done(request_id)
                self.assertEqual([e["type"] for e in reply], ["validActions", "done"])
                self.assertTrue(all(e["game"] == game.game for e in reply))

    def test_a_flood_larger_than_the_pipes_is_written_and_read(self):
        # 4 games x 3,000 lines, about 1.5 MB of answers: writing waits on reading, never blocks.
        with EnginePool(4, ["--clock", "virtual"], BINARY, check=False) as pool:
            pool.cork()
            for game in pool.games:
                for _ in range(3000):
                    game.write({"type": "validActions"})
            pool.flush()
            for game in pool.games:
                game.ping()
            self.assertTrue(all(game.seq > 6000 for game in pool.games))

    def test_a_line_for_no_game_is_answered_by_game_zero(self):
        with EnginePool(2, ["--clock", "virtual"], BINARY, check=False) as pool:
            reply = pool.games[0].send_raw('{"type":"next","id":"far","game":5}')
            error = reply.first("error")
            self.assertEqual((error["field"], error["game"]), ("game", 0))
            self.assertEqual(error["message"], "game must be between 0 and 1")
            with self.assertRaises(ValueError):
                pool.games[1].send({"type": "next", "game": 0})

    def test_raw_lines_go_to_their_game(self):
        # Before: a raw line carried no game, so game 0 answered what game 1 waited for.
        with EnginePool(2, ["--clock", "virtual"], BINARY, check=False) as pool:
            reply = pool.games[1].send_raw('{"type":"fly","id":"raw"}')
            self.assertEqual((reply.first("error")["game"], reply.first("error")["code"]), (1, "unknown_command"))
            reply = pool.games[1].send_raw('{"type":"next"}')
            self.assertEqual(reply.first("done")["game"], 1)
            reply = pool.games[0].send_raw("not json")
            self.assertEqual(reply.first("error")["code"], "malformed_json")
            with self.assertRaises(ValueError):
                pool.games[1].send_raw("not json")
            with self.assertRaises(ValueError):
                pool.games[1].send_raw('{"type":"next","game":0}')

    def test_a_pool_keeps_progress_in_memory(self):
        with EnginePool(1, ["--clock", "virtual"], BINARY, check=False) as pool:
            self.assertIn("--memory-save", pool.argv)
            self.assertNotIn("save_locked", [e.get("code") for e in pool.games[0].opening])

    def test_a_pool_of_one_game_is_a_plain_engine(self):
        with EnginePool(1, ["--clock", "virtual"], BINARY, check=False) as pool:
            reply = pool.games[0].send({"type": "next"})
            self.assertNotIn("game", reply.first("done"))
            self.assertEqual(pool.games[0].hello.get("games"), None)

    def test_a_pool_names_the_line_that_breaks_the_protocol(self):
        # The pool reads a whole chunk at once and finds a bad event's line only when there is one:
        # the error must still carry the very line (before: every chunk was split into lines first).
        for bad, why in [
            ('{"type":"announce","seq":1,"gen":0,"text":"seq went back","game":1}', "seq does not grow"),
            ('{"type":"announce","seq":90,"gen":0,"text":"whose game?"}', "without a game"),
            ('{"type":"announce","seq":91,"gen":0,"text":"no such game","game":7}', "without a game"),
            ("not json at all", "not JSON"),
        ]:
            path = fake_engine(
                f"""
                seqs = {{}}
                def say(game, event):
                    seqs[game] = seqs.get(game, 0) + 1
                    event.update(seq=seqs[game], gen=0, game=game)
                    return json.dumps(event)
                for line in sys.stdin:
                    command = json.loads(line)
                    game = command.get("game", 0)
                    if command["type"] == "hello":
                        hello = json.loads({HELLO_LINE!r})
                        del hello["seq"]
                        hello["replyTo"] = command["id"]
                        print(say(game, hello), flush=True)
                        print(say(game, {{"type": "done", "replyTo": command["id"]}}), flush=True)
                    else:
                        print(say(0, {{"type": "announce", "text": "fine"}}))
                        print(say(game, {{"type": "done", "replyTo": command["id"]}}))
                        print({bad!r}, flush=True)
                """
            )
            try:
                pool = EnginePool(2, [], path, protocol=(1, 0), check=False)
                try:
                    with self.assertRaises(ProtocolViolation, msg=bad) as caught:
                        pool.games[1].send({"type": "next"})
                        pool.games[0].ping()
                    self.assertEqual(caught.exception.line, bad.encode())
                    self.assertIn(why, str(caught.exception))
                finally:
                    pool.kill()
            finally:
                os.unlink(path)

    def test_closing_ends_every_game(self):
        pool = EnginePool(2, ["--clock", "virtual"], BINARY, check=False)
        pool.close()
        self.assertEqual(pool.process.returncode, 0)
        self.assertTrue(all(game._bye for game in pool.games))
        self.assertEqual([game.unsolicited[-1]["type"] for game in pool.games], ["ended", "ended"])
        pool.close()  # twice is fine

if __name__ == "__main__":
    unittest.main()
