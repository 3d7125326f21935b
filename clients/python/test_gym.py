#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of efb_gym.py, the Gymnasium environment, against the built engine.

    python3 clients/python/test_gym.py [-v]

The engine is $EFB_BINARY, else the efb of `swift build --show-bin-path` (the build the other
tests use), else .build/release/efb or .build/debug/efb; with none, the run fails. Gymnasium's env
checker and vector envs run when gymnasium is installed (the test says they were skipped
otherwise); everything else runs either way, and one test imports the module with gymnasium
hidden, to check it works without it. The Ray test is test_ray.py.
"""

import contextlib
import glob
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import efb_gym  # noqa: E402
from efb_gym import HAVE_GYMNASIUM, EscapeEnv, decode  # noqa: E402
from testsupport import BINARY, require_binary  # noqa: E402

try:
    import numpy as np
except ImportError:  # pragma: no cover - depends on the machine
    np = None


def setUpModule():
    # No engine is a failure, never a skip: without it these tests would prove nothing.
    require_binary()


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


class EnvTests(unittest.TestCase):
    def setUp(self):
        self.env = EscapeEnv(BINARY)

    def tearDown(self):
        self.env.close()

    def test_reset(self):
        obs, info = self.env.reset(seed=1)
        self.assertIn(obs, self.env.observation_space)
        self.assertTrue(info["text"].startswith("screen: Darkness (intro)\n> Darkness [header]\n"), info["text"])
        self.assertIn("\nactions:\n0: Continue\n", info["text"])
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
        self.assertIn("- No moonlight reaches this deep.", info["text"])
        total = 0.0
        for answer in CHAPTER_1:
            obs, reward, terminated, truncated, info = self.env.step(index_of(info, answer))
            self.assertEqual(reward, 1.0, info["text"])
            total += reward
            self.assertFalse(terminated or truncated)
        self.assertEqual(total, 4.0)
        self.assertEqual(info["screen"], "chapter-stones")
        self.assertEqual(info["solved"], ["cellar-door", "cellar-water", "cellar-jars", "cellar-stairs"])
        self.assertIn("solved: 4/25", info["text"])
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "begin"))
        self.assertEqual(info["screen"], "level-stones-memory")
        field = index_of(info, "answer", "input")
        self.assertTrue(info["valid_actions"][field]["needs_text"])
        self.assertIn(f"{field}: ", info["text"])
        self.assertIn("(needs text)", info["text"])
        # The text comes with the index, as a pair or a dict.
        obs, reward, terminated, truncated, info = self.env.step((field, "the lantern"))
        self.assertIn("- the lantern", info["text"])
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "answer"))
        self.assertEqual(reward, 0.0)
        self.assertIn("- The stone stays silent.", info["text"])
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
                self.assertEqual(decode(after), decode(obs))
                self.assertEqual(list(after["action_mask"]), list(obs["action_mask"]))
        # A valid one still works afterwards.
        after, reward, terminated, truncated, info2 = self.env.step(0)
        self.assertFalse(info2["invalid_action"])
        self.assertEqual(info2["screen"], "intro-2")

    def test_navigation_through_command(self):
        obs, info = self.env.reset(seed=1)
        reply = self.env.command({"type": "next"})
        self.assertEqual(reply.first("focus")["element"]["id"], "text")
        self.assertIn("\n> You wake on cold stone.", self.env.text)

    def test_the_text_marks_the_focused_element_wherever_it_moves(self):
        env = EscapeEnv(BINARY)
        try:
            env.reset(seed=3)
            env.step(next(i for i, a in enumerate(env.valid_actions) if a["command"] == {"type": "escape"}))
            for move in [{"type": "next"}] * 4 + [{"type": "previous"}, {"type": "last"}, {"type": "first"}]:
                env.command(move)
                text = env.text
                marked = [line for line in text.split("\n") if line.startswith("> ")]
                focused = env.engine.model.focused
                self.assertEqual(len(marked), 1, move)
                self.assertTrue(marked[0].startswith("> " + focused["label"]), move)
                # The same text as the engine's, asked again (nothing said since).
                seen = env.engine.send({"type": "observe", "maxActions": env.max_actions}).first("observation")
                self.assertEqual(seen["text"], text.split("\nsaid:\n")[0] + text[text.rfind("\nactions:") :] if "\nsaid:\n" in text else text)
        finally:
            env.close()

    def test_a_hook_on_the_engines_events_sees_every_step(self):
        # Before: the env swapped its list of events at each step and put its own append back as
        # the engine's on_event, so a hook set after reset saw the first step's events only.
        env = EscapeEnv(BINARY)
        try:
            env.reset(seed=4)
            seen = []
            own = env.engine.on_event
            env.engine.on_event = lambda event: (seen.append(event["type"]), own(event))
            for step in range(6):
                obs, reward, terminated, truncated, info = env.step(0)
                self.assertEqual(seen.count("done"), step + 1)  # (a step is one batch: one done)
            self.assertGreater(len(seen), 6)
        finally:
            env.close()

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
            self.assertEqual(env.render(), decode(obs))
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
                seen = [decode(obs)]
                for _ in range(steps):
                    choice = rng.choice(info["valid_actions"])
                    action = (choice["index"], "glass") if choice["needs_text"] else choice["index"]
                    obs, reward, terminated, truncated, info = env.step(action)
                    seen.append((decode(obs), list(obs["action_mask"]), reward, terminated, truncated))
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


@needs_gymnasium
class GymnasiumTests(unittest.TestCase):
    def test_env_checker(self):
        from gymnasium.utils.env_checker import check_env

        import gymnasium

        for render_mode in (None, "ansi"):
            for observation in ("dict", "text"):
                with self.subTest(render_mode=render_mode, observation=observation):
                    env = gymnasium.make(efb_gym.ENV_ID, binary=BINARY, render_mode=render_mode, observation=observation)
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
            self.assertEqual(env.action_space.n, env.max_actions + env.max_words)
            self.assertIsInstance(env.observation_space, gymnasium.spaces.Dict)
            self.assertIsInstance(env.observation_space["text"], gymnasium.spaces.Box)
            self.assertIsInstance(env.observation_space["action_mask"], gymnasium.spaces.Box)
        finally:
            env.close()
        text_env = EscapeEnv(BINARY, observation="text")
        try:
            self.assertIsInstance(text_env.observation_space, gymnasium.spaces.Text)
        finally:
            text_env.close()

    def test_every_text_of_both_adventures_fits_the_text_space(self):
        # The reference bot plays the whole game in each language through a text env: every
        # observation's text, before it is made to fit, holds only characters of the space. (The
        # engine is the only source: this works outside the repository.)
        for locale in ("en", "fr"):
            with self.subTest(locale=locale):
                env = EscapeEnv(BINARY, observation="text", locale=locale)
                outside = set()
                original = efb_gym.sanitize

                def checking(text, max_length):
                    outside.update(c for c in efb_gym.unicodedata.normalize("NFC", text) if c not in efb_gym.CHARSET)
                    return original(text, max_length)

                efb_gym.sanitize = checking
                try:
                    ok, counts = efb_gym.run_reference_bot(env, seed=1, locale=locale)
                finally:
                    efb_gym.sanitize = original
                    env.close()
                self.assertTrue(ok, counts)
                self.assertEqual(outside, set())

    def test_the_default_async_vector_env_carries_real_observations(self):
        # AsyncVectorEnv shares observations through shared memory by default; a Text space came
        # back as blank text there (8,192 newlines), since Gymnasium cannot share one.
        import gymnasium

        envs = gymnasium.vector.AsyncVectorEnv([lambda: EscapeEnv(BINARY) for _ in range(2)])
        try:
            self.assertTrue(envs.shared_memory)
            obs, infos = envs.reset(seed=[1, 2])
            for i in range(2):
                self.assertTrue(decode(obs["text"][i]).startswith("screen: Darkness (intro)\n"), decode(obs["text"][i]))
                self.assertEqual(list(np.flatnonzero(obs["action_mask"][i])), [0, 1, 2])
            obs, rewards, terminations, truncations, infos = envs.step(np.array([2, 0]))
            self.assertTrue(decode(obs["text"][0]).startswith("screen: Chapter 1: The Cellar of Echoes (chapter)"), decode(obs["text"][0]))
            self.assertTrue(decode(obs["text"][1]).startswith("screen: How to play (intro)"), decode(obs["text"][1]))
        finally:
            envs.close()

    def test_gymnasium_make_vec(self):
        import gymnasium

        envs = gymnasium.make_vec(efb_gym.ENV_ID, num_envs=2, vectorization_mode="async", binary=BINARY)
        try:
            obs, infos = envs.reset(seed=3)
            self.assertTrue(all(decode(text).startswith("screen: Darkness (intro)") for text in obs["text"]))
        finally:
            envs.close()


@needs_gymnasium
class VectorEnvTests(unittest.TestCase):
    def test_make_vec_without_a_mode_gives_the_pooled_vector_env(self):
        # Without a mode, gymnasium.make_vec used to build its SyncVectorEnv of one engine per game,
        # stepped one after another (about 9 times fewer steps a second): the registration now names
        # EscapeVectorEnv as the vector entry point.
        import gymnasium

        envs = gymnasium.make_vec(efb_gym.ENV_ID, num_envs=3, binary=BINARY)
        try:
            self.assertIsInstance(envs, efb_gym.EscapeVectorEnv)
            self.assertTrue(envs.pooled)
            self.assertEqual(envs.num_envs, 3)
            obs, infos = envs.reset(seed=3)
            self.assertTrue(all(decode(text).startswith("screen: Darkness (intro)") for text in obs["text"]))
            obs, rewards, terminations, truncations, infos = envs.step(np.array([2, 2, 2]))
            self.assertEqual(len(rewards), 3)
        finally:
            envs.close()

    def test_escape_vector_env(self):
        import gymnasium

        envs = efb_gym.EscapeVectorEnv(3, binary=BINARY, max_steps=4)
        try:
            self.assertIsInstance(envs, gymnasium.vector.VectorEnv)
            obs, infos = envs.reset(seed=5)
            self.assertEqual(obs["text"].shape, (3, 8192))
            self.assertEqual(list(infos["text"]), [decode(t) for t in obs["text"]])
            self.assertEqual(obs["action_mask"].shape, (3, envs.single_action_space.n))
            self.assertIn(obs, envs.observation_space)
            seen_end = False
            for step in range(6):
                before = {key: value.copy() for key, value in obs.items()}
                previous = obs
                obs, rewards, terminations, truncations, infos = envs.step(np.array([2, 0, 1]))
                self.assertIn(obs, envs.observation_space)
                # Each row is its env's own observation; a step's arrays are new ones, and the
                # ones given before stay as they were.
                for index, env in enumerate(envs.envs):
                    np.testing.assert_array_equal(obs["text"][index], efb_gym.encode(env.text, env.max_length))
                    np.testing.assert_array_equal(obs["action_mask"][index], env.action_masks().astype(np.int8))
                for key in obs:
                    np.testing.assert_array_equal(previous[key], before[key])
                    self.assertFalse(np.shares_memory(obs[key], previous[key]))
                # What the caller does with its arrays is its own business.
                masks = envs.action_masks().copy()
                self.assertFalse(np.shares_memory(obs["action_mask"], envs._mask))
                obs["action_mask"][:] = 1 - obs["action_mask"]
                np.testing.assert_array_equal(envs.action_masks(), masks)
                obs["action_mask"][:] = 1 - obs["action_mask"]
                if step == 3:
                    self.assertTrue(all(truncations))  # max_steps
                    self.assertTrue((obs["action_mask"] == 0).all())
                    seen_end = True
                if step == 4:  # the next step resets (NEXT_STEP autoreset)
                    self.assertTrue(all(decode(t).startswith("screen: Darkness (intro)") for t in obs["text"]))
                    self.assertFalse(any(truncations))
            self.assertTrue(seen_end)
            # One engine hosts every game (efb pipe --games 3), kept across the resets.
            self.assertEqual([env.engines_started for env in envs.envs], [0, 0, 0])
            self.assertEqual({env.engine.pid for env in envs.envs}, {envs.pool.process.pid})
            self.assertEqual([env.engine.game for env in envs.envs], [0, 1, 2])
            pool = envs.pool
            envs.reset()
            self.assertIs(envs.pool, pool)
            envs.reset(seed=9)  # other seeds: another pool
            self.assertIsNot(envs.pool, pool)
            self.assertIsNotNone(pool.process.poll())
        finally:
            envs.close()
        self.assertIsNotNone(envs.envs[0].engine is None)

    def test_a_pool_that_stops_truncates_every_game_and_play_goes_on(self):
        # Before: the step's one write to the dead engine raised EngineExited out of step().
        envs = efb_gym.EscapeVectorEnv(3, binary=BINARY)
        try:
            envs.reset(seed=2)
            envs.step(np.array([0, 0, 0]))
            envs.pool.process.kill()
            envs.pool.process.wait()
            obs, rewards, terminations, truncations, infos = envs.step(np.array([0, 0, 0]))
            self.assertTrue(all(truncations))
            self.assertFalse(any(terminations))
            # The next step starts each game again (in an engine of its own), and play goes on.
            obs, rewards, terminations, truncations, infos = envs.step(np.array([0, 0, 0]))
            self.assertTrue(all(decode(t).startswith("screen: Darkness (intro)") for t in obs["text"]))
            obs, *_ = envs.step(efb_gym._random_actions(obs["action_mask"], np.random.default_rng(0)))
            self.assertIn(obs, envs.observation_space)
            envs.reset(seed=4)  # a reset with seeds gathers the games in a new pool
            self.assertIsNone(envs.pool.process.poll())
            self.assertEqual([env.engine.game for env in envs.envs], [0, 1, 2])
        finally:
            envs.close()

    def test_an_engine_per_game_without_the_pool(self):
        envs = efb_gym.EscapeVectorEnv(3, binary=BINARY, max_steps=4, pool=False)
        try:
            envs.reset(seed=5)
            for _ in range(6):
                envs.step(np.array([2, 0, 1]))
            self.assertIsNone(envs.pool)
            self.assertEqual([env.engines_started for env in envs.envs], [1, 1, 1])
            self.assertEqual(len({env.engine.pid for env in envs.envs}), 3)
        finally:
            envs.close()

    def test_the_pool_plays_each_game_as_an_engine_of_its_own_would(self):
        """Game i of the pool (seed 5 + i) and an engine of its own with that seed: the same
        observations, rewards and ends, step after step, through resets."""
        pooled = efb_gym.EscapeVectorEnv(4, binary=BINARY, max_steps=40)
        alone = efb_gym.EscapeVectorEnv(4, binary=BINARY, max_steps=40, pool=False)
        rng = np.random.default_rng(11)
        try:
            a, _ = pooled.reset(seed=5)
            b, _ = alone.reset(seed=5)
            for step in range(120):
                np.testing.assert_array_equal(a["text"], b["text"], err_msg=f"step {step}")
                np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
                actions = efb_gym._random_actions(a["action_mask"], rng)
                a, ra, ta, ua, _ = pooled.step(actions)
                b, rb, tb, ub, _ = alone.step(actions)
                np.testing.assert_array_equal(ra, rb)
                np.testing.assert_array_equal(ta, tb)
                np.testing.assert_array_equal(ua, ub)
            self.assertGreater(sum(env.episodes for env in pooled.envs), 4)  # resets happened
        finally:
            pooled.close()
            alone.close()

    def test_omitted_events_change_no_observation_reward_or_end(self):
        """The env asks the engine to leave out sound and result (hello's omit, granted); with
        omit_events=() it keeps them. Step after step the two see the same game, and their
        info["events"] differ by exactly those events."""
        lean = EscapeEnv(BINARY, max_steps=80)
        full = EscapeEnv(BINARY, max_steps=80, omit_events=())
        rng = random.Random(3)
        omitted = 0
        try:
            a, info_a = lean.reset(seed=9)
            b, info_b = full.reset(seed=9)
            self.assertEqual(lean.engine.hello.get("omit"), ["sound", "result"])
            self.assertNotIn("omit", full.engine.hello)
            for step in range(300):
                self.assertEqual(info_a["text"], info_b["text"], f"step {step}")
                self.assertEqual(lean.valid_indices(), full.valid_indices())
                action = rng.choice(lean.valid_indices() or [0])
                a, ra, ta, ua, info_a = lean.step(action)
                b, rb, tb, ub, info_b = full.step(action)
                self.assertEqual((ra, ta, ua), (rb, tb, ub))
                kept = [e for e in info_b["events"] if e.get("type") not in ("sound", "result")]
                omitted += len(info_b["events"]) - len(kept)
                self.assertEqual(info_a["events"], kept)
                if ta or ua:
                    a, info_a = lean.reset()
                    b, info_b = full.reset()
            self.assertGreater(omitted, 100)
        finally:
            lean.close()
            full.close()

    def test_the_vector_env_without_game_events_sees_the_same_games(self):
        """The vector env leaves out every game event (GAME_EVENTS: its observations come whole
        from observe); with the game's events sent it sees the same observations, masks, rewards
        and ends, step after step, through resets."""
        lean = efb_gym.EscapeVectorEnv(4, binary=BINARY, max_steps=60)
        full = efb_gym.EscapeVectorEnv(4, binary=BINARY, max_steps=60, omit_events=("sound", "result"))
        rng = np.random.default_rng(5)
        rewards = 0.0
        try:
            a, _ = lean.reset(seed=21)
            b, _ = full.reset(seed=21)
            self.assertEqual(lean.pool.games[0].hello.get("omit"), list(efb_gym.GAME_EVENTS))
            for step in range(400):
                np.testing.assert_array_equal(a["text"], b["text"], err_msg=f"step {step}")
                np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
                actions = efb_gym._random_actions(a["action_mask"], rng)
                a, ra, ta, ua, _ = lean.step(actions)
                b, rb, tb, ub, _ = full.step(actions)
                np.testing.assert_array_equal(ra, rb)
                np.testing.assert_array_equal(ta, tb)
                np.testing.assert_array_equal(ua, ub)
                rewards += float(np.clip(ra, 0, None).sum())
            self.assertGreater(rewards, 0)  # levels were solved
            self.assertGreater(sum(env.episodes for env in lean.envs), 8)  # resets happened
        finally:
            lean.close()
            full.close()

    def test_without_game_events_info_still_says_where_the_game_is(self):
        """An EscapeEnv that leaves out every game event (as the vector env does) gives the same
        observation, reward, end and info screen, kind, focus and said as one that reads them; and
        info["events"] never holds the env's own queries' events."""
        lean = EscapeEnv(BINARY, max_steps=60, omit_events=efb_gym.GAME_EVENTS)
        full = EscapeEnv(BINARY, max_steps=60)
        rng = random.Random(8)
        said = 0
        try:
            a, info_a = lean.reset(seed=12)
            b, info_b = full.reset(seed=12)
            for step in range(250):
                for key in ("text", "screen", "kind", "focus", "said", "words", "valid_actions"):
                    self.assertEqual(info_a[key], info_b[key], f"{key} at step {step}")
                said += len(info_b["said"])
                for event in info_b["events"]:
                    self.assertIsNone(re.fullmatch(r"env-\d+(-text)?", str(event.get("replyTo", ""))), event)
                action = rng.choice(full.valid_indices() or [0])
                a, ra, ta, ua, info_a = lean.step(action)
                b, rb, tb, ub, info_b = full.step(action)
                self.assertEqual((ra, ta, ua), (rb, tb, ub), f"step {step}")
                if ta or ua:
                    a, info_a = lean.reset()
                    b, info_b = full.reset()
            self.assertGreater(said, 50)
        finally:
            lean.close()
            full.close()

    def test_a_level_is_rewarded_once_even_after_a_restore(self):
        """A restore through command() takes the count of levels back; solving the level again
        earns nothing (the reward follows the count's highest in the episode)."""
        env = EscapeEnv(BINARY)
        try:
            env.reset(seed=1)
            env.command({"type": "escape"})
            env.command({"type": "activate", "element": "begin"})
            blob = env.snapshot()
            senses = next(i for i, a in enumerate(env.valid_actions) if a.get("element") == "senses" and a["command"]["type"] == "activate")
            _, reward, _, _, _ = env.step(senses)
            self.assertEqual(reward, 1.0)
            env.command({"type": "restore", "blob": blob})
            env.command({"type": "state"})
            senses = next(i for i, a in enumerate(env.valid_actions) if a.get("element") == "senses" and a["command"]["type"] == "activate")
            _, reward, _, _, _ = env.step(senses)
            self.assertEqual(reward, 0.0)
        finally:
            env.close()

    def test_random_actions_pick_every_valid_index_alike(self):
        rng = np.random.default_rng(3)
        masks = np.zeros((6, 40), dtype=np.int8)
        masks[0, :5] = 1
        masks[1, [3, 17, 39]] = 1
        masks[2, 39] = 1
        masks[4, :] = 1  # (row 3 has none: 0)
        masks[5, 10:20] = 1
        masks[5, 30:32] = 1
        draws = np.stack([efb_gym._random_actions(masks, rng) for _ in range(6000)])
        self.assertTrue((draws[:, 3] == 0).all())
        for row in (0, 1, 2, 4, 5):
            valid = np.flatnonzero(masks[row])
            self.assertTrue(np.isin(draws[:, row], valid).all(), row)
            counts = np.bincount(draws[:, row], minlength=40)[valid]
            expected = 6000 / len(valid)
            self.assertTrue((abs(counts - expected) < 0.25 * expected + 30).all(), (row, counts))

    def test_the_benchmark_runs(self):
        results = efb_gym.benchmark(BINARY, [2], ["escape", "sync", "async"], seconds=0.2)
        self.assertEqual([(r["mode"], r["envs"]) for r in results], [("escape", 2), ("sync", 2), ("async", 2)])
        self.assertTrue(all(r["steps"] > 0 and r["rate"] > 0 for r in results), results)


class ResetTests(unittest.TestCase):
    def test_resets_keep_one_engine(self):
        env = EscapeEnv(BINARY)
        try:
            first, info = env.reset(seed=1)
            pid = env.engine.pid
            for index in (2, 0):  # skip the intro, begin the first level
                obs, reward, terminated, truncated, info = env.step(index if index == 2 else index_of(info, "begin"))
            self.assertEqual(info["screen"], "level-cellar-door")
            obs, reward, terminated, truncated, info = env.step(index_of(info, "senses"))
            self.assertEqual(info["solved"], ["cellar-door"])
            # reset() without a seed: a new game in the same engine (replay), nothing solved.
            obs, info = env.reset()
            self.assertEqual(env.engine.pid, pid)
            self.assertEqual((info["screen"], info["solved"], env.episodes), ("intro-1", [], 2))
            self.assertNotIn("earlier progress", info["text"])
            self.assertIn("solved: 0/25", info["text"])
            # reset(seed=1) again: the snapshot of the start, the same observation as the first.
            again, info = env.reset(seed=1)
            self.assertEqual(env.engine.pid, pid)
            self.assertEqual(decode(again), decode(first))
            self.assertEqual(list(again["action_mask"]), list(first["action_mask"]))
            self.assertEqual(env.engines_started, 1)
            # Fifty short episodes, one engine.
            for _ in range(50):
                obs, info = env.reset()
                env.step(2)
            self.assertEqual(env.engine.pid, pid)
            self.assertEqual(env.engines_started, 1)
            # Another seed, or other options, need another engine.
            env.reset(seed=2)
            self.assertNotEqual(env.engine.pid, pid)
            env.reset(options={"locale": "fr"})
            self.assertEqual(env.engines_started, 3)
        finally:
            env.close()

    def test_a_refused_replay_starts_a_new_engine(self):
        env = EscapeEnv(BINARY)
        try:
            env.reset(seed=1)
            env.command({"type": "assistive", "active": False})  # the one screen replay refuses
            self.assertEqual(env.screen["kind"], "assistive")
            obs, info = env.reset()
            self.assertEqual(info["screen"], "intro-1")
            self.assertEqual(env.engines_started, 2)
        finally:
            env.close()

    def test_replayed_episodes_are_the_same_for_the_same_seed(self):
        def episodes(seed):
            env = EscapeEnv(BINARY)
            try:
                env.reset(seed=seed)
                orders = []
                for _ in range(3):
                    obs, _, _, _, info = env.step(2)
                    obs, _, _, _, info = env.step(index_of(info, "begin"))
                    orders.append(tuple(a["element"] for a in info["valid_actions"] if a["element"]))
                    env.reset()
                return orders
            finally:
                env.close()

        first = episodes(4)
        self.assertEqual(first, episodes(4))
        self.assertGreater(len(set(first)), 1)  # each replay shuffles anew


class ActionTests(unittest.TestCase):
    def setUp(self):
        self.env = EscapeEnv(BINARY)

    def tearDown(self):
        self.env.close()

    def walk_to(self, screen):
        obs, info = self.env.reset(seed=1)
        obs, reward, terminated, truncated, info = self.env.step(screen_wide(info, "escape"))
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "begin"))
        for answer in CHAPTER_1:
            obs, reward, terminated, truncated, info = self.env.step(index_of(info, answer))
        obs, reward, terminated, truncated, info = self.env.step(index_of(info, "begin"))
        self.assertEqual(info["screen"], screen)
        return obs, info

    def word_action(self, info, word):
        for action in info["valid_actions"]:
            if action.get("word") == word:
                return action["index"]
        raise AssertionError(f"no word action {word!r} among {info['words']}")

    def test_a_refused_step_still_lets_its_time_pass(self):
        # A step is one batch, all or nothing: a text the engine refuses (too long) refuses the batch,
        # and the step's time then passes by itself, as when each command was a line of its own.
        self.env.close()
        self.env = EscapeEnv(BINARY, hints_at_once=False, ms_per_step=30_000)
        obs, info = self.walk_to("level-stones-memory")
        field = index_of(info, "answer", "input")
        obs, reward, terminated, truncated, info = self.env.step((field, "x" * 1001))
        self.assertIn("- error: commands[0]: text is 1001 characters", info["text"])
        self.assertTrue(info["valid_actions"][field]["needs_text"])  # the valid actions, as they stand
        self.assertIn("A new hint is ready.", " ".join(info["said"]))  # the step's 30 s passed

    def test_word_actions_answer_open_questions(self):
        obs, info = self.walk_to("level-stones-memory")
        # "glass" was said on the very first page; answering with it is one step.
        self.assertIn("glass", info["words"])
        index = self.word_action(info, "glass")
        self.assertGreaterEqual(index, self.env.max_actions)
        self.assertTrue(obs["action_mask"][index])
        self.assertIn(f"{self.env.max_actions}-{self.env.max_actions + len(info['words']) - 1}: answer with one of", info["text"])
        wrong = self.word_action(info, "darkness")
        obs, reward, terminated, truncated, info = self.env.step(wrong)
        self.assertEqual(reward, 0.0)
        self.assertIn("The stone stays silent", info["text"])
        obs, reward, terminated, truncated, info = self.env.step(self.word_action(info, "glass"))
        self.assertEqual(reward, 1.0)
        self.assertEqual(info["screen"], "level-stones-count")
        # "The Three Jars" of the first chapter give the count.
        obs, reward, terminated, truncated, info = self.env.step(self.word_action(info, "three"))
        self.assertEqual(reward, 1.0)
        self.assertEqual(info["screen"], "level-stones-light")
        obs, reward, terminated, truncated, info = self.env.step(self.word_action(info, "light"))
        self.assertEqual(reward, 1.0)
        # Letters read one at a time, "C, A, F, and an E", make their word.
        self.assertIn("cafe", info["words"])
        obs, reward, terminated, truncated, info = self.env.step(self.word_action(info, "cafe"))
        self.assertEqual(reward, 1.0)
        self.assertEqual(info["screen"], "chapter-vault")
        # No text field: no word action is valid.
        self.assertFalse(obs["action_mask"][self.env.max_actions :].any())
        obs, reward, terminated, truncated, info = self.env.step(self.env.max_actions)
        self.assertTrue(info["invalid_action"])

    def test_words_of(self):
        self.assertEqual(efb_gym.words_of("Élan, vital!"), ["élan", "vital"])
        self.assertIn("cafe", efb_gym.words_of("read them one at a time: C, A, F, and an E with a small stroke"))
        self.assertNotIn("ia", efb_gym.words_of("I am what you lost. A dry lamp"))

    def test_a_random_agent_with_the_mask_reaches_every_level_kind(self):
        # Uniform over the mask, with word actions: chapter 2's open questions no longer stop it.
        # (Seeded agent and engine: the same run every time. It reaches the dials, the fifth kind,
        # after solving the open questions, two rotor doors and two custom-action levels.)
        totals = efb_gym.run_random_agent(self.env, 80000, seed=7, until_every_kind=True)
        self.assertEqual(totals["reached"], efb_gym.LEVEL_KINDS, totals)
        self.assertLessEqual({"closedQuestion", "openQuestion", "rotor", "customActions"}, totals["solved"], totals)


class MaskTests(unittest.TestCase):
    def check_agreement(self, env, obs, info):
        indices = [action["index"] for action in info["valid_actions"]]
        self.assertEqual(indices, env.valid_indices())
        self.assertEqual(list(np.flatnonzero(info["action_mask"])), indices)
        self.assertEqual(list(np.flatnonzero(env.action_masks())), indices)
        self.assertEqual(list(np.flatnonzero(obs["action_mask"])), indices)

    def test_the_mask_and_the_valid_actions_agree_at_every_step(self):
        env = EscapeEnv(BINARY, max_steps=300)
        rng = random.Random(2)
        try:
            obs, info = env.reset(seed=2)
            ends = 0
            for _ in range(900):
                self.check_agreement(env, obs, info)
                if not info["valid_actions"]:
                    self.assertTrue(info["steps"] == 300)
                    ends += 1
                    obs, info = env.reset()
                    continue
                # Naive sampling from the mask never picks an invalid action.
                index = int(env.action_space.sample(mask=env.action_masks().astype(np.int8)))
                obs, reward, terminated, truncated, info = env.step(index)
                self.assertFalse(info["invalid_action"])
                if terminated or truncated:
                    # At the end both say there is nothing left to do.
                    self.assertEqual(info["valid_actions"], [])
                    self.assertFalse(info["action_mask"].any())
                    self.assertFalse(obs["action_mask"].any())
                    self.assertIn("actions:", info["text"])
                    self.assertTrue(info["text"].rstrip().endswith("actions:"))
            self.assertGreater(ends, 0)
        finally:
            env.close()

    def test_the_valid_actions_are_the_engines_at_every_step(self):
        # A step asks for the list with ifChanged (protocol 4.16): the engine sends it only when the
        # step changed it, and the env keeps the one it has otherwise. Checked against the engine's
        # own list, asked for in full after every step.
        env = EscapeEnv(BINARY, max_steps=150)
        rng = random.Random(5)
        sent = []
        set_valid = env._set_valid
        env._set_valid = lambda event: (sent.append(event is not None), set_valid(event))
        try:
            obs, info = env.reset(seed=5)
            steps = 0
            for _ in range(400):
                if not info["valid_actions"]:
                    obs, info = env.reset()
                    continue
                obs, reward, terminated, truncated, info = env.step(rng.choice(info["valid_actions"])["index"])
                steps += 1
                if terminated or truncated:
                    continue
                engines = env.engine.send({"type": "validActions"}).first("validActions")["actions"]
                self.assertEqual(env.valid_actions, engines[: env.max_actions])
            self.assertGreater(steps, 300)
            self.assertLess(len(sent), steps / 2)  # most steps left the list as it was: no list sent
        finally:
            env.close()

    def test_they_agree_at_the_end_of_a_whole_game(self):
        env = EscapeEnv(BINARY)
        try:
            ok, counts = efb_gym.run_reference_bot(env, seed=1)
            self.assertTrue(ok, counts)
            obs, reward, terminated, truncated, info = env.step(0)
            self.assertTrue(terminated)
            self.assertEqual(info["valid_actions"], [])
            self.assertFalse(env.action_masks().any())
            self.assertFalse(obs["action_mask"].any())
        finally:
            env.close()


class OutsideTheRepositoryTests(unittest.TestCase):
    """The tests run from a copy of clients/python outside the repository."""

    def copy(self):
        folder = tempfile.mkdtemp(prefix="efb-python-")
        self.addCleanup(shutil.rmtree, folder, True)
        for path in glob.glob(os.path.join(HERE, "*.py")):
            shutil.copy(path, folder)
        return folder

    def run_tests(self, folder, names, environment):
        return subprocess.run(
            [sys.executable, "-B", "test_gym.py", *names],
            cwd=folder,
            capture_output=True,
            text=True,
            env=environment,
            timeout=600,
        )

    def test_the_spaces_test_passes_outside_the_repository(self):
        folder = self.copy()
        result = self.run_tests(
            folder, ["GymnasiumTests.test_spaces", "SanitizeTests"], dict(os.environ, EFB_BINARY=BINARY)
        )
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("OK", result.stderr)
        self.assertNotIn("skipped", result.stderr)

    def test_without_an_engine_the_run_fails(self):
        folder = self.copy()
        environment = {key: value for key, value in os.environ.items() if key != "EFB_BINARY"}
        environment["PATH"] = "/usr/bin:/bin"  # no swift to ask for the build
        result = self.run_tests(folder, ["SanitizeTests"], environment)
        self.assertNotEqual(result.returncode, 0, result.stderr)
        self.assertIn("no efb binary", result.stderr)
        for script in ("test_client.py",):
            result = subprocess.run(
                [sys.executable, "-B", script], cwd=folder, capture_output=True, text=True, env=environment, timeout=600
            )
            self.assertNotEqual(result.returncode, 0, result.stderr)
            self.assertIn("no efb binary", result.stderr)


class SanitizeTests(unittest.TestCase):
    def test_sanitize(self):
        self.assertEqual(efb_gym.sanitize("Élément\u202f: 😀", 100), "Élément\u202f: ?")
        self.assertEqual(efb_gym.sanitize("e\u0301t\u00e9", 100), "\u00e9t\u00e9")  # composed first
        self.assertEqual(efb_gym.sanitize("x" * 20, 10), "xxxxxxx...")
        self.assertEqual(efb_gym.sanitize("", 10), " ")


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
            "assert env.action_space.n == 64 + 512 and 0 in env.action_space\n"
            "obs, reward, terminated, truncated, info = env.step(0)\n"
            "assert info['screen'] == 'intro-2', info['screen']\n"
            "obs, reward, *_ = env.step(63)\n"
            "assert reward < 0\n"
            "pid = env.engine.pid\n"
            "obs, info = env.reset()\n"
            "assert env.engine.pid == pid and info['screen'] == 'intro-1'\n"
            "env.reset(seed=1); env.reset(seed=9)\n"
            "assert env.engine_seed == 9 and env.engines_started == 2\n"
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
