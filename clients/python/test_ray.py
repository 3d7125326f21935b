#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Gymnasium env under Ray: RLlib's env runners on a local Ray cluster.

    python3 clients/python/test_ray.py [-v]

Needs Ray with RLlib (PyPI ``ray[rllib]``) and PyTorch, which RLlib's env runners load; scripts/
install-deps installs them beside the game (see docs/GYMNASIUM.md),
and scripts/test runs this test with them. It starts a Ray cluster on this machine
(``ray.init(num_cpus=2)``), two RLlib env runners (each its own Ray worker process), each with two
copies of the env, and samples a few thousand steps of random valid actions (an RLModule that
draws from the observation's action mask), then checks what the runners report: every step valid,
levels solved, episodes that reset within each engine, and the work spread over both workers.
The engine is found as by the other tests; without it, or without Ray, the run fails.
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from testsupport import BINARY, require_binary  # noqa: E402

STEPS_PER_RUNNER = 1500


def setUpModule():
    require_binary()


def make_env(config):
    """The env creator Ray's workers call (the module is found through PYTHONPATH)."""
    import efb_gym

    return efb_gym.EscapeEnv(**dict(config))


def summary(runner):
    """What one env runner sampled: run inside its Ray worker."""
    episodes = runner.sample(num_timesteps=STEPS_PER_RUNNER, random_actions=False)
    steps = sum(len(episode) for episode in episodes)
    infos = [info for episode in episodes for info in episode.get_infos()[1:]]
    engines = set()
    assert all("action_mask" in info for info in infos)
    for env in runner.env.unwrapped.envs:
        engines.add(env.unwrapped.engine.pid)
    return {
        "worker": os.getpid(),
        "steps": steps,
        "invalid": sum(1 for info in infos if info.get("invalid_action")),
        "reward": float(sum(sum(episode.get_rewards()) for episode in episodes)),
        "episodes_begun": sum(env.unwrapped.episodes for env in runner.env.unwrapped.envs),
        "engines": sorted(engines),
        "engines_started": sum(env.unwrapped.engines_started for env in runner.env.unwrapped.envs),
    }


class RayTests(unittest.TestCase):
    def test_rllib_env_runners_on_a_local_cluster(self):
        import numpy as np
        import ray
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.rllib.core.columns import Columns
        from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
        from ray.rllib.env.env_runner_group import EnvRunnerGroup
        from ray.tune.registry import register_env

        class MaskedRandomModule(RLModule):
            """Draws each action uniformly from the valid ones (the observation's action mask). It
            has no weights; it says torch so that RLlib's connectors hand it torch tensors."""

            framework = "torch"

            def _forward(self, batch, **kwargs):
                masks = np.asarray(batch[Columns.OBS]["action_mask"])
                rng = np.random.default_rng()
                return {Columns.ACTIONS: np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in masks])}

            def to(self, device):
                return self

        path = os.pathsep.join(p for p in [HERE, os.environ.get("PYTHONPATH", "")] if p)
        ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
        try:
            register_env("escape-from-blindness", make_env)
            config = (
                PPOConfig()
                .environment("escape-from-blindness", env_config={"binary": BINARY, "max_steps": 150})
                .framework("torch")
                .env_runners(num_env_runners=2, num_envs_per_env_runner=2)
                .rl_module(rl_module_spec=RLModuleSpec(module_class=MaskedRandomModule))
            )
            group = EnvRunnerGroup(config=config)
            try:
                results = group.foreach_env_runner(summary, local_env_runner=False)
            finally:
                group.stop()
        finally:
            ray.shutdown()
        print(f"test_ray: {results}", file=sys.stderr)
        self.assertEqual(len(results), 2)
        self.assertEqual(len({r["worker"] for r in results}), 2)  # two Ray worker processes
        self.assertGreaterEqual(sum(r["steps"] for r in results), 2 * STEPS_PER_RUNNER)
        for result in results:
            self.assertEqual(result["invalid"], 0, result)  # the mask carried through RLlib
            self.assertGreater(result["reward"], 0, result)  # levels were solved
            self.assertGreater(result["episodes_begun"], 2, result)  # episodes of 150 steps ended and reset
            self.assertEqual(len(result["engines"]), 2, result)  # one engine per env copy...
            self.assertEqual(result["engines_started"], 2, result)  # ...kept across resets


if __name__ == "__main__":
    unittest.main()
