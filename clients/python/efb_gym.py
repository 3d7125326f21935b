#!/usr/bin/env python3
"""A Gymnasium environment for Escape From Blindness bots, on top of :mod:`efb_client`.

    from efb_gym import EscapeEnv

    env = EscapeEnv()                       # the engine: $EFB_BINARY, else the repository's build
    obs, info = env.reset(seed=1)           # a new game: efb pipe --seed 1 --clock virtual --memory-save
    while True:
        index = agent(obs, info["valid_actions"], env.action_masks())
        obs, reward, terminated, truncated, info = env.step(index)      # or env.step((index, "glass"))
        if terminated or truncated:
            break
    env.close()

**Observation** (``observation_space``: ``Text``): one text holding the screen on show (its title,
kind and elements, one per line in reading order, the focused one marked ``>``), the progress, the
torch on timed levels, what the game said since the last step (announcements and errors) and the
valid actions, numbered as the action space numbers them. Characters outside the space's character
set (Latin scripts, common punctuation) are written ``?``; a text longer than ``max_length`` is cut.

**Action** (``action_space``: ``Discrete(max_actions)``): an index into the valid actions, the
engine's own ``validActions`` list (the gestures a screen-reader player has, each aimed at its
element; see Protocol/README.md §5.12). They are in ``info["valid_actions"]``; ``info["action_mask"]``
and :meth:`EscapeEnv.action_masks` mark the valid indices (the ``action_masks()`` method is what
sb3-contrib's ``MaskablePPO`` calls). An action whose ``needsText`` is true (typing an answer into a
text field) takes its text from the step: ``env.step((index, "glass"))`` or
``env.step({"index": index, "text": "glass"})``; a bare index types ``default_text`` (empty). An
index that is not a valid action changes nothing and costs ``invalid_action_reward`` (-0.01).
Navigation (moving the focus) is not in the action space: every valid action is already aimed. An
agent that wants it, or a report such as ``state``, can use :meth:`EscapeEnv.command`.

**Reward**: ``level_reward`` (1.0) for each level solved for the first time in the episode, so a
whole game is worth 25 with the shipped adventure. **Episode end**: ``terminated`` on the end
screen (the player escaped); ``truncated`` after ``max_steps`` steps, or if the engine stopped.

**Seeds and time**: every ``reset`` starts a new engine with ``--clock virtual --memory-save`` and
``--seed S``: ``S`` is ``reset(seed=S)``'s seed, or else drawn from the environment's own generator
(itself seeded by the last ``reset(seed=...)``), so the same seed gives the same episode. Time only
moves when the agent lets it: ``ms_per_step`` (0) milliseconds are waited after every action; with
``hints_at_once`` (the default) every hint is ready at once. ``reset(options=...)`` takes
``locale``, ``hints_at_once``, ``time_pressure``, ``ms_per_step`` and ``engine_args`` for that
episode.

Gymnasium (``pip install gymnasium``) is used when it is installed; without it the module still
imports and runs, with small stand-ins for ``gymnasium.Env`` and the two spaces (``HAVE_GYMNASIUM``
says which). With Gymnasium, importing the module registers the env: ``gymnasium.make(
"EscapeFromBlindness-v0", binary=...)`` gives it, wrapped as usual (``env.unwrapped`` is the
:class:`EscapeEnv`). Run an agent from the command line::

    python3 clients/python/efb_gym.py --agent random --steps 2000 --seed 7
    python3 clients/python/efb_gym.py --agent bot       # the reference bot's strategy, through the env
"""

from __future__ import annotations

import argparse
import os
import random
import string
import sys
import unicodedata
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from efb_client import EfbClientError, Engine, Reply  # noqa: E402

try:  # numpy comes with gymnasium; either may be missing
    import numpy as np
except ImportError:  # pragma: no cover - depends on the machine
    np = None

try:
    import gymnasium as gym
    from gymnasium import spaces

    HAVE_GYMNASIUM = True
except ImportError:  # pragma: no cover - depends on the machine
    gym = None
    spaces = None
    HAVE_GYMNASIUM = False

__all__ = ["EscapeEnv", "ENV_ID", "HAVE_GYMNASIUM", "CHARSET", "run_random_agent", "run_reference_bot"]

Event = Dict[str, Any]
Command = Dict[str, Any]

#: The characters an observation may hold: printable ASCII, newline, Latin-1, Latin Extended-A and
#: common punctuation (dashes, quotes, ellipsis, French spacing, the euro and minus signs). Anything
#: else is written "?".
CHARSET = "".join(
    sorted(
        set(string.printable) - set("\t\r\x0b\x0c")
        | {chr(c) for c in range(0xA0, 0x180)}
        | {chr(c) for c in range(0x2010, 0x2028)}
        | {chr(c) for c in range(0x2030, 0x205F)}
        | {"\u202f", "\u20ac", "\u2122", "\u2212"}
    )
)
_CHARSET = frozenset(CHARSET)


# --------------------------------------------------------------------------------------------------
# Stand-ins for gymnasium, when it is not installed


class _Discrete:
    """A minimal ``gymnasium.spaces.Discrete``: the integers 0 … n-1."""

    def __init__(self, n: int, seed: Optional[int] = None):
        self.n = int(n)
        self._random = random.Random(seed)

    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        self._random = random.Random(seed)
        return [seed]

    def sample(self, mask: Optional[Sequence[Any]] = None) -> int:
        choices = [i for i in range(self.n) if mask is None or mask[i]]
        return self._random.choice(choices) if choices else 0

    def contains(self, x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < self.n

    __contains__ = contains

    def __repr__(self) -> str:
        return f"Discrete({self.n})"


class _Text:
    """A minimal ``gymnasium.spaces.Text``: strings of ``min_length`` to ``max_length`` characters
    from ``charset``."""

    def __init__(self, max_length: int, *, min_length: int = 1, charset: str = CHARSET, seed: Optional[int] = None):
        self.max_length = max_length
        self.min_length = min_length
        self.character_set = frozenset(charset)
        self._characters = "".join(sorted(self.character_set))
        self._random = random.Random(seed)

    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        self._random = random.Random(seed)
        return [seed]

    def sample(self) -> str:
        length = self._random.randint(self.min_length, self.max_length)
        return "".join(self._random.choice(self._characters) for _ in range(length))

    def contains(self, x: Any) -> bool:
        return (
            isinstance(x, str)
            and self.min_length <= len(x) <= self.max_length
            and all(c in self.character_set for c in x)
        )

    __contains__ = contains

    def __repr__(self) -> str:
        return f"Text({self.min_length}, {self.max_length})"


class _Env:
    """A minimal ``gymnasium.Env``: ``reset`` seeds ``np_random`` (a ``random.Random`` here)."""

    metadata: Dict[str, Any] = {"render_modes": []}
    render_mode: Optional[str] = None
    spec = None
    _np_random: Optional[random.Random] = None

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        if seed is not None:
            self._np_random = random.Random(seed)
        return None

    @property
    def np_random(self) -> random.Random:
        if self._np_random is None:
            self._np_random = random.Random()
        return self._np_random

    @property
    def unwrapped(self) -> "_Env":
        return self

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args: Any) -> bool:
        self.close()
        return False


_Base = gym.Env if HAVE_GYMNASIUM else _Env
_DiscreteSpace = spaces.Discrete if HAVE_GYMNASIUM else _Discrete
_TextSpace = spaces.Text if HAVE_GYMNASIUM else _Text


def sanitize(text: str, max_length: int) -> str:
    """``text`` composed (NFC), with characters outside :data:`CHARSET` written ``?``, cut to
    ``max_length`` (ending with ``...`` when cut), and never empty."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(c if c in _CHARSET else "?" for c in text)
    if len(text) > max_length:
        text = text[: max(0, max_length - 3)] + "..."
    return text or " "


def _element_line(element: Event) -> str:
    traits = element.get("traits") or []
    parts = [element.get("label", "")]
    if element.get("value") is not None:
        parts[0] += f": {element['value']}"
    tags = [t for t in traits if t != "staticText"]
    if tags:
        parts.append("[" + ", ".join(tags) + "]")
    if element.get("rotors"):
        parts.append("(rotors: " + ", ".join(element["rotors"]) + ")")
    if element.get("actions"):
        parts.append("(actions: " + ", ".join(element["actions"]) + ")")
    return " ".join(parts)


# --------------------------------------------------------------------------------------------------
# The environment


class EscapeEnv(_Base):
    """Escape From Blindness as a Gymnasium environment (see the module's documentation).

    Args:
        binary: the ``efb`` executable (default: ``$EFB_BINARY``, then the repository's build).
        locale: the adventure's language (``en``, ``fr``).
        max_actions: the size of the action space, an upper bound on the valid actions of a screen
            (the shipped adventure has at most 27, on the level menu once every level is open); further ones are left out.
        max_length: the longest observation, in characters.
        max_steps: truncate an episode after this many steps (``None``: never).
        hints_at_once: ``--hints-at-once``: every hint of a level is ready at once.
        time_pressure: ``False`` gives ``--no-time-pressure``: timed levels never run out.
        ms_per_step: milliseconds of virtual time that pass after every action.
        invalid_action_reward: the reward of an index that is not a valid action.
        level_reward: the reward of a level solved for the first time in the episode.
        default_text: the text typed by a ``needsText`` action given without one.
        engine_args: more ``efb pipe`` options.
        render_mode: ``"ansi"`` (``render()`` returns the observation) or ``"human"`` (prints it).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        binary: Optional[str] = None,
        *,
        locale: str = "en",
        max_actions: int = 64,
        max_length: int = 8192,
        max_steps: Optional[int] = None,
        hints_at_once: bool = True,
        time_pressure: bool = True,
        ms_per_step: int = 0,
        invalid_action_reward: float = -0.01,
        level_reward: float = 1.0,
        default_text: str = "",
        engine_args: Sequence[str] = (),
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.binary = binary
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.max_length = max_length
        self.max_steps = max_steps
        self.invalid_action_reward = float(invalid_action_reward)
        self.level_reward = float(level_reward)
        self.default_text = default_text
        self.defaults = {
            "locale": locale,
            "hints_at_once": hints_at_once,
            "time_pressure": time_pressure,
            "ms_per_step": ms_per_step,
            "engine_args": list(engine_args),
        }
        self.settings = dict(self.defaults)
        self.observation_space = _TextSpace(max_length, min_length=1, charset=CHARSET)
        self.action_space = _DiscreteSpace(max_actions)
        #: The running engine (an :class:`efb_client.Engine`), or ``None`` before ``reset``.
        self.engine: Optional[Engine] = None
        #: The engine's seed for this episode.
        self.engine_seed: Optional[int] = None
        self.steps = 0
        self.solved: List[str] = []
        self.total_levels: Optional[int] = None
        self.terminated = False
        self.truncated = False
        self.valid_actions: List[Event] = []
        self._valid_event: Optional[Event] = None
        self._events: List[Event] = []  # every event read since the last observation
        self._own_ids: set = set()  # ids of the env's own validActions queries
        self._said: List[str] = []
        self._deferred_reward = 0.0  # levels solved by command(), rewarded at the next step
        self._observation = " "

    # ----------------------------------------------------------------------------------------------
    # Gymnasium API

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - set(self.defaults)
        if unknown:
            raise ValueError(f"unknown reset options: {sorted(unknown)}")
        self.settings = {**self.defaults, **options}
        self.engine_seed = int(seed) if seed is not None else self._draw_seed()
        self._stop_engine()
        args = ["--seed", str(self.engine_seed), "--clock", "virtual", "--memory-save"]
        if self.settings["locale"]:
            args += ["--locale", self.settings["locale"]]
        if self.settings["hints_at_once"]:
            args.append("--hints-at-once")
        if not self.settings["time_pressure"]:
            args.append("--no-time-pressure")
        args += list(self.settings["engine_args"])
        self._events = []
        self._own_ids = set()
        self.engine = Engine(
            args=args,
            binary=self.binary,
            hello={"client": "efb_gym"},
            protocol=(1, 1),
            check=False,
            stderr="capture",
            on_event=self._events.append,
        )
        self.steps = 0
        self.solved = []
        self._deferred_reward = 0.0
        self.total_levels = None
        self.terminated = False
        self.truncated = False
        self._refresh_actions()
        self._take_events()
        self._observation = self._observe()
        return self._observation, self._info(events=[], invalid=False)

    def step(self, action: Any):
        if self.engine is None:
            raise RuntimeError("call reset() before step()")
        index, text = self._parse_action(action)
        if self.terminated or self.truncated:
            return self._observation, 0.0, self.terminated, self.truncated, self._info(events=[], invalid=True)
        self.steps += 1
        invalid = index is None or not (0 <= index < len(self.valid_actions))
        events: List[Event] = []
        reward = 0.0
        if invalid:
            reward = self.invalid_action_reward
            self._said = []
        else:
            entry = self.valid_actions[index]
            command = dict(entry["command"])
            if entry.get("needsText"):
                command["text"] = self.default_text if text is None else str(text)
            commands = [command]
            if self.settings["ms_per_step"]:
                commands.append({"type": "wait", "ms": int(self.settings["ms_per_step"])})
            try:
                self.engine.send_many(commands, check=False)
                self._refresh_actions()
            except EfbClientError:
                self.truncated = True  # the engine stopped: nothing more can happen
            events = self._take_events()
            reward = self.level_reward * self._new_levels(events) + self._deferred_reward
            self._deferred_reward = 0.0
        self._observation = self._observe()
        if self.max_steps is not None and self.steps >= self.max_steps:
            self.truncated = True
        info = self._info(events=events, invalid=invalid)
        if self.render_mode == "human":
            self.render()
        return self._observation, reward, self.terminated, self.truncated, info

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._observation
        if self.render_mode == "human":
            print(self._observation + "\n")
        return None

    def close(self) -> None:
        self._stop_engine()
        super().close()

    # ----------------------------------------------------------------------------------------------
    # Beyond Gymnasium

    def action_masks(self) -> Any:
        """Which indices are valid actions now: a numpy bool array (a list without numpy)."""
        mask = [i < len(self.valid_actions) for i in range(self.max_actions)]
        if self.terminated or self.truncated:
            mask = [False] * self.max_actions
        return np.array(mask, dtype=bool) if np is not None else mask

    def command(self, command: Command) -> Reply:
        """Sends a command outside the action space (navigation such as ``focus`` or ``next``, or a
        report such as ``state``) and returns its :class:`efb_client.Reply`. It is no step: it
        earns no reward, and levels it solves are rewarded at the next step. The observation and
        the valid actions are brought up to date."""
        if self.engine is None:
            raise RuntimeError("call reset() before command()")
        reply = self.engine.send(dict(command), check=False)
        self._refresh_actions()
        self._deferred_reward += self.level_reward * self._new_levels(self._take_events())
        self._observation = self._observe()
        return reply

    @property
    def screen(self) -> Optional[Event]:
        """The screen on show (kept current by the client's screen model)."""
        return self.engine.screen if self.engine else None

    # ----------------------------------------------------------------------------------------------
    # Internals

    def _draw_seed(self) -> int:
        generator = self.np_random
        if hasattr(generator, "integers"):
            return int(generator.integers(0, 2**63 - 1))
        return generator.randrange(2**63 - 1)

    def _stop_engine(self) -> None:
        if self.engine is not None:
            try:
                self.engine.close(timeout=2.0)
            except EfbClientError:
                self.engine.kill()
            self.engine = None

    def _parse_action(self, action: Any) -> Tuple[Optional[int], Optional[str]]:
        text = None
        if isinstance(action, dict):
            text = action.get("text")
            action = action.get("index")
        elif isinstance(action, (tuple, list)) and len(action) == 2:
            action, text = action
        if np is not None and isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if np is not None and isinstance(action, np.integer):
            action = int(action)
        if isinstance(action, bool) or not isinstance(action, int):
            return None, text
        return action, text

    def _refresh_actions(self) -> None:
        """Asks the engine for the valid actions (``validActions`` reports; it changes nothing)."""
        request_id = f"env-{self.engine.commands_sent + 1}"
        self._own_ids.add(request_id)
        reply = self.engine.send({"type": "validActions", "id": request_id}, check=False)
        event = reply.first("validActions")
        if event is not None:
            self._valid_event = event
        actions = list(self._valid_event.get("actions", [])) if self._valid_event else []
        self.valid_actions = actions[: self.max_actions]

    def _take_events(self) -> List[Event]:
        """The events read since the last call, without the env's own queries."""
        events = [e for e in self._events if e.get("replyTo") not in self._own_ids]
        del self._events[:]
        self._said = []
        for event in events:
            kind = event.get("type")
            if kind == "announce":
                self._said.append(event.get("text", ""))
            elif kind == "error":
                self._said.append("error: " + event.get("message", event.get("code", "")))
            elif kind == "progress":
                self.total_levels = event.get("total", self.total_levels)
            elif kind == "ended" and event.get("reason") == "escaped":
                self.terminated = True
        screen = self.engine.screen if self.engine else None
        if screen and screen.get("kind") == "end":
            self.terminated = True
        return events

    def _new_levels(self, events: List[Event]) -> int:
        new = 0
        for event in events:
            if event.get("type") == "progress":
                for level in event.get("completed", []):
                    if level not in self.solved:
                        self.solved.append(level)
                        new += 1
        return new

    def _observe(self) -> str:
        engine = self.engine
        screen = engine.screen or {}
        focused = engine.model.focused_id
        lines = [f"screen: {screen.get('title', '')} ({screen.get('kind', '?')})"]
        for element in engine.model.elements:
            marker = ">" if element.get("id") == focused else " "
            lines.append(f"{marker} {_element_line(element)}")
        total = self.total_levels if self.total_levels is not None else "?"
        lines.append(f"solved: {len(self.solved)}/{total}")
        if engine.timer is not None:
            lines.append(f"torch: {engine.timer.remaining_ms // 1000} s{' (paused)' if engine.timer.paused else ''}")
        if self._said:
            lines.append("said:")
            lines += [f"- {text}" for text in self._said]
        lines.append("actions:")
        for index, action in enumerate(self.valid_actions):
            needs = " (needs text)" if action.get("needsText") else ""
            lines.append(f"{index}: {action.get('label', '')}{needs}")
        return sanitize("\n".join(lines), self.max_length)

    def _info(self, *, events: List[Event], invalid: bool) -> Dict[str, Any]:
        engine = self.engine
        screen = engine.screen or {}
        return {
            "valid_actions": [
                {
                    "index": index,
                    "label": action.get("label", ""),
                    "element": action.get("element"),
                    "command": dict(action.get("command", {})),
                    "needs_text": bool(action.get("needsText")),
                }
                for index, action in enumerate(self.valid_actions)
            ],
            "action_mask": self.action_masks(),
            "invalid_action": invalid,
            "screen": screen.get("screen"),
            "kind": screen.get("kind"),
            "focus": engine.model.focused_id,
            "said": list(self._said),
            "events": events,
            "solved": list(self.solved),
            "total_levels": self.total_levels,
            "engine_seed": self.engine_seed,
            "steps": self.steps,
        }


#: The id under which the env is registered with Gymnasium: ``gymnasium.make(ENV_ID)``.
ENV_ID = "EscapeFromBlindness-v0"

if HAVE_GYMNASIUM and ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point=f"{__name__}:EscapeEnv")


# --------------------------------------------------------------------------------------------------
# Agents


def run_random_agent(env: EscapeEnv, steps: int, seed: int = 0, text_pool: Sequence[str] = ("glass", "7", "")) -> Dict[str, Any]:
    """Plays ``steps`` steps of random valid actions (random texts from ``text_pool`` where one is
    needed), resetting at the end of an episode. Returns counts."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    totals = {"steps": 0, "reward": 0.0, "episodes": 1, "invalid": 0}
    for _ in range(steps):
        choices = info["valid_actions"]
        if choices and rng.random() > 0.05:
            action = rng.choice(choices)
            step = (action["index"], rng.choice(list(text_pool))) if action["needs_text"] else action["index"]
        else:
            step = rng.randrange(env.max_actions)  # now and then an arbitrary index
        obs, reward, terminated, truncated, info = env.step(step)
        totals["steps"] += 1
        totals["reward"] += reward
        totals["invalid"] += bool(info["invalid_action"])
        if terminated or truncated:
            obs, info = env.reset()
            totals["episodes"] += 1
    return totals


class _EnvEngine:
    """What the reference bot needs of an :class:`efb_client.Engine`, played through an env: a
    gesture the env lists among its valid actions is one ``env.step``; ``validActions`` is answered
    from the env's list; navigation and reports go through :meth:`EscapeEnv.command`."""

    def __init__(self, env: EscapeEnv):
        self.env = env
        self.opening = list(env.engine.opening) + [env._valid_event or {}]
        self.commands_sent = 0
        self.steps = 0
        self.reward = 0.0
        self.outside: List[str] = []  # types of the commands sent outside the action space
        self.done = False

    def __getattr__(self, name: str) -> Any:  # screen, focus, gen, capabilities, speaks, model, ...
        return getattr(self.env.engine, name)

    def send(self, command: Command, *, check: Optional[bool] = None) -> Reply:
        return self.send_many([command])[0]

    def send_many(self, commands: Sequence[Command], *, check: Optional[bool] = None) -> List[Reply]:
        return [self._one(dict(command)) for command in commands]

    def _one(self, command: Command) -> Reply:
        self.commands_sent += 1
        command.pop("id", None)
        command.pop("ifGen", None)
        if command["type"] == "validActions":
            event = dict(self.env._valid_event or {"type": "validActions", "actions": []})
            return Reply(None, [event, {"type": "done", "gen": event.get("gen")}])
        index = self._index_of(command)
        if index is None:
            self.outside.append(command["type"])
            return self.env.command(command)
        obs, reward, terminated, truncated, info = self.env.step((index, command.get("text")))
        self.steps += 1
        self.reward += reward
        self.done = terminated or truncated
        return Reply(None, info["events"])

    def _index_of(self, command: Command) -> Optional[int]:
        wanted = {k: v for k, v in command.items() if k != "text"}
        for index, action in enumerate(self.env.valid_actions):
            offered = {k: v for k, v in action.get("command", {}).items() if k != "text"}
            if offered == wanted:
                return index
        return None


def run_reference_bot(env: EscapeEnv, seed: int = 1, locale: str = "en") -> Tuple[bool, Dict[str, Any]]:
    """Plays a whole game with the reference bot's strategy (``bot.py``), every gesture an
    ``env.step``. Returns (reached the end, counts)."""
    import bot as reference  # noqa: E402  (the module next to this one)

    env.reset(seed=seed, options={"locale": locale})
    adapter = _EnvEngine(env)
    player = reference.Bot(adapter, valid_actions="on", locale=locale, if_gen=False)
    ok = player.play() and env.terminated
    return ok, {
        "steps": adapter.steps,
        "reward": adapter.reward,
        "solved": len(env.solved),
        "total_levels": env.total_levels,
        "outside": sorted(set(adapter.outside)),
        "terminated": env.terminated,
    }


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Run an agent through the Escape From Blindness Gymnasium env.")
    parser.add_argument("--binary", help="the efb executable (default: $EFB_BINARY, then the repository's build)")
    parser.add_argument("--agent", choices=["random", "bot"], default="random")
    parser.add_argument("--steps", type=int, default=1000, help="steps of the random agent (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--locale", default="en")
    options = parser.parse_args(argv)
    with EscapeEnv(options.binary, locale=options.locale) as env:
        if options.agent == "random":
            totals = run_random_agent(env, options.steps, options.seed)
            print(
                f"random agent: {totals['steps']} steps, {totals['episodes']} episode(s), "
                f"reward {totals['reward']:.2f}, {totals['invalid']} invalid indices "
                f"(gymnasium {'yes' if HAVE_GYMNASIUM else 'no'})"
            )
            return 0
        ok, counts = run_reference_bot(env, options.seed, options.locale)
        print(
            f"reference bot through the env: {'escaped' if ok else 'stuck'}, reward {counts['reward']:.0f} "
            f"for {counts['solved']}/{counts['total_levels']} levels in {counts['steps']} steps "
            f"(outside the action space: {', '.join(counts['outside']) or 'nothing'})"
        )
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
