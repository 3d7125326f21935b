#!/usr/bin/env python3
"""Self-test of efb_client.py (and a whole game by bot.py) against the built engine.

    python3 clients/python/test_client.py [-v]

The engine is found like the client finds it: $EFB_BINARY, else .build/release/efb, else
.build/debug/efb. A few tests use small fake engines (Python scripts) to check how the client
reports broken output, a dead engine and a silent one.
"""

import json
import os
import stat
import sys
import tempfile
import textwrap
import time
import unittest

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bot  # noqa: E402
from efb_client import (  # noqa: E402
    Engine,
    EngineError,
    EngineExited,
    EngineTimeout,
    ProtocolViolation,
    Reply,
    find_binary,
)

GAME = ["--seed", "1", "--clock", "virtual", "--memory-save"]

try:
    BINARY = find_binary()
except FileNotFoundError:
    BINARY = None

needs_engine = unittest.skipIf(BINARY is None, "no efb binary: build it or set $EFB_BINARY")


def fake_engine(body: str) -> str:
    """Writes an executable Python script standing in for efb; returns its path."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    handle.write("#!" + sys.executable + "\nimport sys, time, json\n" + textwrap.dedent(body))
    handle.close()
    os.chmod(handle.name, os.stat(handle.name).st_mode | stat.S_IXUSR)
    return handle.name


HELLO_LINE = (
    '{"adventure":{"id":"x","title":"X"},"capabilities":[],"engine":"0","gen":0,'
    '"locale":"en","protocol":1,"seq":1,"type":"hello"}'
)


@needs_engine
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


@needs_engine
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


@needs_engine
class TextTests(unittest.TestCase):
    def test_typed_text_with_line_separators_round_trips(self):
        text = "a\u2028b\u2029c\u0085d \u00e9\U0001F600 \"quoted\" \\ /"
        with Engine(GAME + ["--hints-at-once"], hello={"want": ["validActions"]}) as engine:
            # Walk to the first open question the way a player would: the bot knows how.
            player = bot.Bot(engine)
            while not any(
                "textField" in e.get("traits", []) for e in engine.screen["elements"]
            ):
                if engine.screen["kind"] == "level":
                    self.assertTrue(player.solve_level())
                else:
                    player.turn_page()
            field = next(e["id"] for e in engine.screen["elements"] if "textField" in e["traits"])
            reply = engine.send({"type": "input", "text": text, "element": field})
            self.assertEqual(reply.first("announce")["text"], text)
            # 1.1 reports the typed text as an elementChanged (1.0 as a second focus).
            self.assertEqual(reply.element(field)["value"], text)
            self.assertEqual(engine.model.element(field)["value"], text)


@needs_engine
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

    def test_half_a_line_at_the_end(self):
        path = fake_engine(
            """
            sys.stdout.write('{"type":"hel')
            sys.stdout.flush()
            """
        )
        self.assert_violation(path)


@needs_engine
class BotTests(unittest.TestCase):
    def test_the_bot_escapes(self):
        for mode in ("auto", "on", "off"):
            with self.subTest(valid_actions=mode):
                ok, summary, player = bot.run(seed=3, valid_actions=mode)
                self.assertTrue(ok, summary)
                self.assertEqual(len(player.solved), player.total_levels)
                self.assertEqual(player.ended["reason"], "escaped")


if __name__ == "__main__":
    unittest.main()
