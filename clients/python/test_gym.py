#!/usr/bin/env python3
"""Tests of efb_gym.py, the Gymnasium environment, against the built engine.

    python3 clients/python/test_gym.py [-v]

The engine is found like the client finds it: $EFB_BINARY, else .build/release/efb, else
.build/debug/efb. Gymnasium's env checker runs when gymnasium is installed (the test says it was
skipped otherwise); everything else runs either way, and one test imports the module with
gymnasium hidden, to check it works without it.
"""

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import unittest
import warnings

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import efb_gym  # noqa: E402
from efb_client import find_binary  # noqa: E402
from efb_gym import HAVE_GYMNASIUM, EscapeEnv  # noqa: E402

try:
    BINARY = find_binary()
except FileNotFoundError:
    BINARY = None

needs_engine = unittest.skipIf(BINARY is None, "no efb binary: build it or set $EFB_BINARY")
needs_gymnasium = unittest.skipIf(not HAVE_GYMNASIUM, "gymnasium is not installed: the env checker was skipped")

# The right answers of the shipped English adventure's first chapter, and of level 2.1.
CHAPTER_1 = ["senses", "water", "oil-jar", "lower"]


def index_of(info, element, kind="activate"):
    """The index of the valid action of this type on this element."""
    for action in info["valid_actions"]:
        if action["element"] == element and action["command"]["type"] == kind:
            return action["index"]
    raise AssertionError(f"no {kind} on {element} among {[a['label'] for a in info['valid_actions']]}")


def screen_wide(info, kind):
    for action in info["valid_actions"]:
        if action["element"] is None and action["command"]["type"] == kind:
            return action["index"]
    raise AssertionError(f"no {kind} among the valid actions")


@needs_engine
class EnvTests(unittest.TestCase):
    def setUp(self):
        self.env = EscapeEnv(BINARY)

    def tearDown(self):
        self.env.close()

    def test_reset(self):
        obs, info = self.env.reset(seed=1)
        self.assertIn(obs, self.env.observation_space)
        self.assertTrue(obs.startswith("screen: Darkness (intro)\n> Darkness [header]\n"), obs)
        self.assertIn("\nactions:\n0: Continue\n", obs)
        self.assertEqual(info["screen"], "intro-1")
        self.assertEqual(info["focus"], "title")
        self.assertEqual(info["engine_seed"], 1)
        self.assertEqual(info["total_levels"], 25)
        labels = [action["label"] for action in info["valid_actions"]]
        self.assertEqual(labels, ["Continue", "Continue", "Skip the introduction"])
        mask = self.env.action_masks()
        self.assertEqual(len(mask), self.env.action_space.n)
        self.assertEqual([bool(m) for m in mask[:4]], [True, True, True, False])
        self.assertEqual([bool(m) for m in info["action_mask"]], [bool(m) for m in mask])

    def test_first_chapter_and_a_typed_answer(self):
        obs, info = self.env.reset(seed=1)
        obs, reward, terminated, truncated, info = self.env.step(screen_wide(info, "escape"))
        self.assertEqual(info["screen"], "chapter-cellar")
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "begin"))
        self.assertEqual(info["screen"], "level-cellar-door")
        # A wrong answer: no reward, and its feedback in the observation.
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "moonlight"))
        self.assertEqual(reward, 0.0)
        self.assertIn("- No moonlight reaches this deep.", obs)
        total = 0.0
        for answer in CHAPTER_1:
            obs, reward, terminated, truncated, info = self.env.step(index_of(info, answer))
            self.assertEqual(reward, 1.0, obs)
            total += reward
            self.assertFalse(terminated or truncated)
        self.assertEqual(total, 4.0)
        self.assertEqual(info["screen"], "chapter-stones")
        self.assertEqual(info["solved"], ["cellar-door", "cellar-water", "cellar-jars", "cellar-stairs"])
        self.assertIn("solved: 4/25", obs)
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "begin"))
        self.assertEqual(info["screen"], "level-stones-memory")
        field = index_of(info, "answer", "input")
        self.assertTrue(info["valid_actions"][field]["needs_text"])
        self.assertIn(f"{field}: ", obs)
        self.assertIn("(needs text)", obs)
        # The text comes with the index, as a pair or a dict.
        obs, reward, terminated, truncated, info = self.env.step((field, "the lantern"))
        self.assertIn("- the lantern", obs)
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "answer"))
        self.assertEqual(reward, 0.0)
        self.assertIn("- The stone stays silent.", obs)
        obs, reward, terminated, truncated, info = self.env.step({"index": field, "text": "Glass"})
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "answer"))
        self.assertEqual(reward, 1.0)
        self.assertEqual(info["screen"], "level-stones-count")

    def test_invalid_actions_change_nothing(self):
        obs, info = self.env.reset(seed=1)
        for action in (3, self.env.action_space.n - 1, -1, 10**6, "x", None, (99, "text")):
            with self.subTest(action=action):
                after, reward, terminated, truncated, info2 = self.env.step(action)
                self.assertEqual(reward, self.env.invalid_action_reward)
                self.assertTrue(info2["invalid_action"])
                self.assertFalse(terminated or truncated)
                self.assertEqual(info2["screen"], "intro-1")
                self.assertEqual(after, obs)
        # A valid one still works afterwards.
        after, reward, terminated, truncated, info2 = self.env.step(0)
        self.assertFalse(info2["invalid_action"])
        self.assertEqual(info2["screen"], "intro-2")

    def test_navigation_through_command(self):
        obs, info = self.env.reset(seed=1)
        reply = self.env.command({"type": "next"})
        self.assertEqual(reply.first("focus")["element"]["id"], "text")
        self.assertIn("\n> You wake on cold stone.", self.env._observation)

    def test_max_steps_truncates(self):
        env = EscapeEnv(BINARY, max_steps=3)
        try:
            env.reset(seed=1)
            results = [env.step(2)[3] for _ in range(3)]  # "Skip the introduction", then invalid ones
            self.assertEqual(results, [False, False, True])
            self.assertFalse(any(env.action_masks()))
        finally:
            env.close()

    def test_french(self):
        obs, info = self.env.reset(seed=2, options={"locale": "fr"})
        self.assertIn(obs, self.env.observation_space)
        self.assertIn("Passer l'introduction", [a["label"] for a in info["valid_actions"]])
        for _ in range(30):
            obs, reward, terminated, truncated, info = self.env.step(info["valid_actions"][-1]["index"])
            self.assertIn(obs, self.env.observation_space)
        # The next reset without options is in English again.
        obs, info = self.env.reset(seed=2)
        self.assertIn("Skip the introduction", [a["label"] for a in info["valid_actions"]])

    def test_engine_gone(self):
        obs, info = self.env.reset(seed=1)
        self.env.engine.kill()
        obs, reward, terminated, truncated, info = self.env.step(0)
        self.assertTrue(truncated)
        self.assertFalse(terminated)
        self.assertFalse(any(self.env.action_masks()))
        # A new episode starts a new engine.
        obs, info = self.env.reset(seed=1)
        self.assertEqual(info["screen"], "intro-1")

    def test_render_ansi(self):
        env = EscapeEnv(BINARY, render_mode="ansi")
        try:
            obs, info = env.reset(seed=1)
            self.assertEqual(env.render(), obs)
        finally:
            env.close()

    def test_random_agent(self):
        rng = random.Random(7)
        obs, info = self.env.reset(seed=7)
        rewards = 0.0
        for _ in range(400):
            self.assertIn(obs, self.env.observation_space)
            if rng.random() < 0.1:
                action = self.env.action_space.sample()
            else:
                choice = rng.choice(info["valid_actions"])
                action = (choice["index"], rng.choice(["glass", "7", ""])) if choice["needs_text"] else choice["index"]
            obs, reward, terminated, truncated, info = self.env.step(action)
            self.assertIsInstance(reward, float)
            rewards += reward
            if terminated or truncated:
                obs, info = self.env.reset()
        self.assertGreaterEqual(rewards, -4.0)
        totals = efb_gym.run_random_agent(self.env, 300, seed=3)
        self.assertEqual(totals["steps"], 300)

    def test_same_seed_same_episode(self):
        def play(seed, steps=150):
            env = EscapeEnv(BINARY)
            rng = random.Random(11)
            try:
                obs, info = env.reset(seed=seed)
                seen = [obs]
                for _ in range(steps):
                    choice = rng.choice(info["valid_actions"])
                    action = (choice["index"], "glass") if choice["needs_text"] else choice["index"]
                    obs, reward, terminated, truncated, info = env.step(action)
                    seen.append((obs, reward, terminated, truncated))
                    if terminated or truncated:
                        break
                # The next episode's seed comes from the env's generator, seeded by reset(seed=).
                env.reset()
                seen.append(env.engine_seed)
                return seen
            finally:
                env.close()

        self.assertEqual(play(5), play(5))

    def test_seeds_shuffle_the_answers(self):
        orders = set()
        for seed in range(1, 6):
            obs, info = self.env.reset(seed=seed)
            obs, _, _, _, info = self.env.step(screen_wide(info, "escape"))
            obs, _, _, _, info = self.env.step(index_of(info, "begin"))
            orders.add(tuple(a["element"] for a in info["valid_actions"] if a["element"]))
        self.assertGreater(len(orders), 1)

    def test_reference_bot_through_the_env(self):
        ok, counts = efb_gym.run_reference_bot(self.env, seed=1)
        self.assertTrue(ok, counts)
        self.assertTrue(counts["terminated"])
        self.assertEqual(counts["total_levels"], 25)
        self.assertEqual(counts["solved"], 25)
        self.assertEqual(counts["reward"], 25.0)
        # Only navigation went around the action space.
        self.assertLessEqual(set(counts["outside"]), {"focus", "state"})
        # After the end, the episode is over.
        obs, reward, terminated, truncated, info = self.env.step(0)
        self.assertTrue(terminated)
        self.assertEqual(reward, 0.0)


@needs_engine
@needs_gymnasium
class GymnasiumTests(unittest.TestCase):
    def test_env_checker(self):
        from gymnasium.utils.env_checker import check_env

        import gymnasium

        for render_mode in (None, "ansi"):
            with self.subTest(render_mode=render_mode):
                env = gymnasium.make(efb_gym.ENV_ID, binary=BINARY, render_mode=render_mode)
                try:
                    self.assertIsInstance(env.unwrapped, EscapeEnv)
                    # (It renders in every mode, "human" printing: keep that out of the output.)
                    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
                        warnings.simplefilter("always")
                        check_env(env.unwrapped)
                    self.assertEqual([str(w.message) for w in caught], [])
                finally:
                    env.close()

    def test_spaces(self):
        import gymnasium

        env = EscapeEnv(BINARY)
        try:
            self.assertIsInstance(env, gymnasium.Env)
            self.assertIsInstance(env.action_space, gymnasium.spaces.Discrete)
            self.assertIsInstance(env.observation_space, gymnasium.spaces.Text)
            # Every character of both languages' adventures fits the observation space.
            root = os.path.dirname(os.path.dirname(HERE))
            for locale in ("en", "fr"):
                path = os.path.join(root, "Sources", "EscapeContent", "Adventures", f"{locale}.json")
                with open(path, encoding="utf-8") as handle:
                    text = json.dumps(json.load(handle), ensure_ascii=False)
                outside = {c for c in efb_gym.unicodedata.normalize("NFC", text) if c not in efb_gym.CHARSET}
                self.assertEqual(outside, set(), locale)
        finally:
            env.close()


class SanitizeTests(unittest.TestCase):
    def test_sanitize(self):
        self.assertEqual(efb_gym.sanitize("Élément\u202f: 😀", 100), "Élément\u202f: ?")
        self.assertEqual(efb_gym.sanitize("e\u0301t\u00e9", 100), "\u00e9t\u00e9")  # composed first
        self.assertEqual(efb_gym.sanitize("x" * 20, 10), "xxxxxxx...")
        self.assertEqual(efb_gym.sanitize("", 10), " ")


@needs_engine
class WithoutGymnasiumTests(unittest.TestCase):
    def test_importable_without_gymnasium(self):
        script = (
            "import sys\n"
            "sys.modules['gymnasium'] = None\n"  # import gymnasium now raises ImportError
            f"sys.path.insert(0, {HERE!r})\n"
            "import efb_gym\n"
            "assert not efb_gym.HAVE_GYMNASIUM\n"
            "env = efb_gym.EscapeEnv()\n"
            "obs, info = env.reset(seed=1)\n"
            "assert obs in env.observation_space\n"
            "assert env.action_space.n == 64 and 0 in env.action_space\n"
            "obs, reward, terminated, truncated, info = env.step(0)\n"
            "assert info['screen'] == 'intro-2', info['screen']\n"
            "obs, reward, *_ = env.step(63)\n"
            "assert reward < 0\n"
            "env.reset()\n"
            "seed = env.engine_seed\n"
            "env.reset(seed=1); env.reset()\n"
            "assert env.engine_seed == seed\n"
            "env.close()\n"
            "print('ok')\n"
        )
        result = subprocess.run(
            [sys.executable, "-B", "-c", script],
            capture_output=True,
            text=True,
            env=dict(os.environ, EFB_BINARY=BINARY),
            timeout=120,
        )
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "ok")


if __name__ == "__main__":
    if not HAVE_GYMNASIUM:
        print("test_gym.py: gymnasium is not installed: Gymnasium's env checker is skipped", file=sys.stderr)
    unittest.main()
