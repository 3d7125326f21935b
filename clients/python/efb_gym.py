#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A Gymnasium environment for Escape From Blindness bots, on top of :mod:`efb_client`.

    from efb_gym import EscapeEnv

    env = EscapeEnv()                       # the engine: $EFB_BINARY, else the repository's build
    obs, info = env.reset(seed=1)           # a game: efb pipe --seed 1 --clock virtual --memory-save
    while True:
        index = agent(obs, info["valid_actions"], env.action_masks())
        obs, reward, terminated, truncated, info = env.step(index)
        if terminated or truncated:
            break
    env.close()

**Observation** (``observation_space``). By default (``observation="dict"``) a ``Dict`` of two
arrays, so that it travels through the shared memory of Gymnasium's ``AsyncVectorEnv`` and into
RLlib: ``"text"``, the text below as UTF-8 bytes (``uint8``, ``max_length`` of them, padded with
zeros; :func:`decode` gives the text back, and ``info["text"]`` holds it as well), and
``"action_mask"`` (``int8``, one per action, 1 where the action is valid). With ``observation="text"``
it is the text itself, a ``Text`` space (characters outside its character set, Latin scripts and
common punctuation, are written ``?``): easier to read, but Gymnasium's shared memory cannot carry
a ``Text`` space (its upstream issue 1164), so vectorise such an env with
``AsyncVectorEnv(..., shared_memory=False)``. The text is the engine's own (``observe``, Protocol/README.md
§4.16): the screen on show (its title, kind and elements, one per line in reading order, the
focused one marked ``>``), the progress, the torch on timed levels, what the game said since the
last step (announcements and errors) and the numbered gestures; the env adds, on a screen with a
text field, how many words can be answered.

**Action** (``action_space``: ``Discrete(max_actions + max_words)``).
- ``0 … max_actions-1``: a gesture, an index into the engine's own ``validActions`` list (the
  gestures a screen-reader player has, each aimed at its element; see Protocol/README.md §5.12).
  A gesture that types (``needsText``, typing into a text field) takes its text from the step:
  ``env.step((index, "glass"))`` or ``env.step({"index": index, "text": "glass"})``; a bare index
  types ``default_text`` (empty).
- ``max_actions + j``: answer with word ``j``, on a screen with a text field: the word is typed
  into the field and the field activated (one step, like a TextWorld command). The words are the
  ones the game said in this episode (every text on screen and every announcement, lowercased, in
  the order first heard, at most ``max_words``; letters spelled out one by one, "C, A, F, and an
  E", also make their word), listed in ``info["words"]``.
``info["valid_actions"]`` lists every valid action with its index; ``info["action_mask"]``,
:meth:`EscapeEnv.action_masks` (what sb3-contrib's ``MaskablePPO`` calls) and the observation's
``"action_mask"`` mark exactly those indices, and once the episode has ended all three are empty.
An index that is not valid changes nothing and costs ``invalid_action_reward`` (-0.01). Navigation
(moving the focus) is not in the action space: every gesture is already aimed. An agent that wants
it, or a report such as ``state``, can use :meth:`EscapeEnv.command` (not ``env.engine.send``:
each step asks for the valid actions only when they changed, measured against the last list the
engine sent, so a list asked for behind the env's back can leave the env's own out of date).

**Reward**: ``level_reward`` (1.0) for each level solved for the first time in the episode, so a
whole game is worth 25 with the shipped adventure. **Episode end**: ``terminated`` on the end
screen (the player escaped); ``truncated`` after ``max_steps`` steps, or if the engine stopped.

**Resets and seeds**: one engine (``efb pipe --clock virtual --memory-save``) serves every episode
of an env. ``reset(seed=S)`` starts it with ``--seed S``, or, when it already runs with that seed,
brings back the snapshot it took at its start (``restore``): the same seed gives the same episode.
``reset()`` without a seed starts a new game in the same engine (``replay``): the engine's
generator carries on, so the answers are shuffled anew, and a run of episodes after one
``reset(seed=S)`` is the same every time. A new engine is started only for a new seed, other
options, or after the engine stopped. Time only moves when the agent lets it: ``ms_per_step`` (0)
milliseconds are waited after every action; with ``hints_at_once`` (the default) every hint is
ready at once. ``reset(options=...)`` takes ``locale``, ``hints_at_once``, ``time_pressure``,
``ms_per_step`` and ``engine_args`` for that episode, and ``snapshot``, a blob from
:meth:`EscapeEnv.snapshot` to start the episode from (the levels it had solved are not rewarded
again... nor counted: the episode's ``solved`` starts empty).

Gymnasium (``pip install gymnasium``) is used when it is installed; without it the module still
imports and runs, with small stand-ins for ``gymnasium.Env`` and the spaces (``HAVE_GYMNASIUM``
says which). With Gymnasium, importing the module registers the env: ``gymnasium.make(
"EscapeFromBlindness-v0", binary=...)`` gives it, wrapped as usual (``env.unwrapped`` is the
:class:`EscapeEnv`). Run an agent from the command line::

    python3 clients/python/efb_gym.py --agent random --steps 2000 --seed 7
    python3 clients/python/efb_gym.py --agent bot       # the reference bot's strategy, through the env
    python3 clients/python/efb_gym.py --benchmark 1,8,64  # env steps per second
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import string
import sys
import time
import unicodedata
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from efb_client import EfbClientError, Engine, EnginePool, PooledGame, Reply, command_line  # noqa: E402

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

__all__ = ["EscapeEnv", "EscapeVectorEnv", "ENV_ID", "GAME_EVENTS", "decode", "encode", "words_of", "HAVE_GYMNASIUM", "CHARSET", "run_random_agent", "run_reference_bot"]

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


class _Box:
    """A minimal ``gymnasium.spaces.Box`` of integers (numpy arrays of ``shape`` and ``dtype``)."""

    def __init__(self, low: int, high: int, shape: Tuple[int, ...], dtype: Any, seed: Optional[int] = None):
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), np.dtype(dtype)
        self._random = np.random.default_rng(seed)

    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        self._random = np.random.default_rng(seed)
        return [seed]

    def sample(self) -> Any:
        return self._random.integers(self.low, self.high + 1, self.shape).astype(self.dtype)

    def contains(self, x: Any) -> bool:
        return (
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and x.dtype == self.dtype
            and bool(np.all(x >= self.low))
            and bool(np.all(x <= self.high))
        )

    __contains__ = contains

    def __repr__(self) -> str:
        return f"Box({self.low}, {self.high}, {self.shape}, {self.dtype})"


class _DictSpace:
    """A minimal ``gymnasium.spaces.Dict``."""

    def __init__(self, spaces_: Dict[str, Any], seed: Optional[int] = None):
        self.spaces = dict(spaces_)

    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        return [space.seed(seed)[0] for space in self.spaces.values()]

    def sample(self) -> Dict[str, Any]:
        return {key: space.sample() for key, space in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict) and set(x) == set(self.spaces) and all(x[k] in s for k, s in self.spaces.items())

    __contains__ = contains

    def __getitem__(self, key: str) -> Any:
        return self.spaces[key]

    def __repr__(self) -> str:
        return f"Dict({self.spaces!r})"


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
_BoxSpace = spaces.Box if HAVE_GYMNASIUM else _Box
_DictSpaceType = spaces.Dict if HAVE_GYMNASIUM else _DictSpace


def sanitize(text: str, max_length: int) -> str:
    """``text`` composed (NFC), with characters outside :data:`CHARSET` written ``?``, cut to
    ``max_length`` (ending with ``...`` when cut), and never empty."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(c if c in _CHARSET else "?" for c in text)
    if len(text) > max_length:
        text = text[: max(0, max_length - 3)] + "..."
    return text or " "


def encode(text: str, max_length: int) -> Any:
    """``text`` as the ``"text"`` array of a dict observation: its UTF-8 bytes, cut to
    ``max_length`` at a character's boundary, padded with zeros."""
    data = _encoded(text, max_length)
    array = np.zeros(max_length, dtype=np.uint8)
    array[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    return array


def _encoded(text: str, max_length: int) -> bytes:
    """The bytes :func:`encode` puts in its array, before the padding."""
    data = text.encode("utf-8")
    if len(data) > max_length:
        data = data[: max(0, max_length - 3)]
        data = data.decode("utf-8", "ignore").encode("utf-8") + b"..."
    return data


def decode(observation: Any) -> str:
    """The text of an observation: a dict observation (or its ``"text"`` array), or a text one."""
    if isinstance(observation, str):
        return observation
    if isinstance(observation, dict):
        observation = observation["text"]
    data = bytes(np.asarray(observation, dtype=np.uint8))
    return data.split(b"\0", 1)[0].decode("utf-8", "replace")


_WORD = re.compile(r"[^\W_]+")
_heard: Dict[str, List[str]] = {}  # words_of's answers, by text (an adventure has a few thousand)

#: The query ending every step's batch: the list comes only when the step changed it (protocol §4.16).
_VALID_ACTIONS: Command = {"type": "validActions", "ifChanged": True}
#: How many games' lines the vector env gathers before it writes them (a step's first write lets the
#: engine start while Python makes the rest).
_FLUSH_EVERY = 16
#: Every type of event ``hello``'s ``omit`` can leave out (protocol §4.3): what the vector env does
#: without, its observations coming whole from ``observe``.
GAME_EVENTS = ("sound", "result", "announce", "screen", "focus", "elementChanged", "rotor", "actions", "timer", "progress", "idle")
_LETTER_FILLERS = frozenset({"and", "an", "a", "then", "et", "un", "une", "puis"})


def _said_part(text: str) -> Optional[Tuple[int, int]]:
    """Where an observation's text has its ``said:`` part (from its line break to the one before
    ``actions:``), or ``None`` when nothing was said."""
    start = text.find("\nsaid:\n")
    if start < 0:
        return None
    end = text.rfind("\nactions:")
    return start, end if end > start else len(text)


def _said_in(seen: Optional[Event]) -> List[str]:
    """The lines of an observation's ``said:`` part (announcements, and ``error: MESSAGE``)."""
    text = seen.get("text", "") if seen is not None else ""
    part = _said_part(text)
    if part is None:
        return []
    return [line[2:] for line in text[part[0] + len("\nsaid:\n") : part[1]].split("\n")]


def words_of(text: str) -> List[str]:
    """The words of ``text``, lowercased and composed, in order; letters spelled out one at a
    time ("C, A, F, and an E") also give the word they spell ("cafe")."""
    tokens = _WORD.findall(unicodedata.normalize("NFC", text))
    found = [token.lower() for token in tokens]
    run: List[str] = []
    for token in tokens + [""]:
        if len(token) == 1 and token.isupper():
            run.append(token)
        elif run and token.lower() in _LETTER_FILLERS and not token.isupper():
            continue
        else:
            if len(run) >= 2:
                found.append("".join(run).lower())
            run = []
    return found


# --------------------------------------------------------------------------------------------------
# The environment


class EscapeEnv(_Base):
    """Escape From Blindness as a Gymnasium environment (see the module's documentation).

    Args:
        binary: the ``efb`` executable (default: ``$EFB_BINARY``, then the repository's build).
        locale: the adventure's language (``en``, ``fr``).
        max_actions: the number of gesture actions, an upper bound on the valid gestures of a
            screen (the shipped adventure has at most 27, on the level menu once every level is
            open); further ones are left out.
        max_words: the number of word actions (answers), the most words an episode keeps.
        max_length: the longest observation text, in characters (``"text"``) or bytes (``"dict"``).
        observation: ``"dict"`` (the default when numpy is there) or ``"text"``.
        max_steps: truncate an episode after this many steps (``None``: never).
        hints_at_once: ``--hints-at-once``: every hint of a level is ready at once.
        time_pressure: ``False`` gives ``--no-time-pressure``: timed levels never run out.
        ms_per_step: milliseconds of virtual time that pass after every action.
        invalid_action_reward: the reward of an index that is not a valid action.
        level_reward: the reward of a level solved for the first time in the episode.
        default_text: the text typed by a ``needsText`` gesture given without one.
        engine_args: more ``efb pipe`` options.
        omit_events: the types of events the engine need not send (``hello``'s ``omit``): the
            default leaves out ``sound`` and ``result``, which make neither the
            observation nor the reward (``info["events"]`` lacks them); ``()`` keeps every event.
            :data:`GAME_EVENTS` (what :class:`EscapeVectorEnv` uses) leaves out every game event:
            the observation, the words, the reward, the end and ``info``'s ``screen``, ``kind``,
            ``focus`` and ``said`` still come from each step's ``observe``, but ``info["events"]``
            and ``info["solved"]`` (level ids, from ``progress`` events) stay empty and
            :attr:`screen` stays as the engine opened.
        render_mode: ``"ansi"`` (``render()`` returns the text) or ``"human"`` (prints it).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        binary: Optional[str] = None,
        *,
        locale: str = "en",
        max_actions: int = 64,
        max_words: int = 512,
        max_length: int = 8192,
        observation: Optional[str] = None,
        max_steps: Optional[int] = None,
        hints_at_once: bool = True,
        time_pressure: bool = True,
        ms_per_step: int = 0,
        invalid_action_reward: float = -0.01,
        level_reward: float = 1.0,
        default_text: str = "",
        engine_args: Sequence[str] = (),
        omit_events: Sequence[str] = ("sound", "result"),
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if observation is None:
            observation = "dict" if np is not None else "text"
        if observation not in ("dict", "text"):
            raise ValueError(f'observation must be "dict" or "text", not {observation!r}')
        if observation == "dict" and np is None:
            raise ValueError('observation="dict" needs numpy')
        self.binary = binary
        self.render_mode = render_mode
        self.observation = observation
        self.max_actions = max_actions
        self.max_words = max_words
        self.max_length = max_length
        self.max_steps = max_steps
        self.invalid_action_reward = float(invalid_action_reward)
        self.level_reward = float(level_reward)
        self.default_text = default_text
        #: The types of events the engine is asked not to send (hello's ``omit``): none of them
        #: makes the observation or the reward, and each costs time at every step.
        self.omit_events = list(omit_events)
        self.defaults = {
            "locale": locale,
            "hints_at_once": hints_at_once,
            "time_pressure": time_pressure,
            "ms_per_step": ms_per_step,
            "engine_args": list(engine_args),
        }
        self.settings = dict(self.defaults)
        size = max_actions + max_words
        if observation == "dict":
            self.observation_space = _DictSpaceType(
                {
                    "text": _BoxSpace(0, 255, (max_length,), np.uint8),
                    "action_mask": _BoxSpace(0, 1, (size,), np.int8),
                }
            )
        else:
            self.observation_space = _TextSpace(max_length, min_length=1, charset=CHARSET)
        self.action_space = _DiscreteSpace(size)
        #: The running engine (an :class:`efb_client.Engine`), or ``None`` before ``reset``.
        self.engine: Optional[Engine] = None
        #: The seed the engine was started with.
        self.engine_seed: Optional[int] = None
        #: Engines started and episodes begun by this env.
        self.engines_started = 0
        self.episodes = 0
        self.steps = 0
        self.solved: List[str] = []
        self.total_levels: Optional[int] = None
        self.terminated = False
        self.truncated = False
        #: The gestures valid now (the engine's validActions, at most ``max_actions``).
        self.valid_actions: List[Event] = []
        #: The words heard this episode, in the order first heard: action ``max_actions + j`` answers ``words[j]``.
        self.words: List[str] = []
        self._word_set: set = set()
        self._texts_heard: set = set()  # texts whose words were taken this episode
        self._word_entries: List[Dict[str, Any]] = []  # info's word actions, made once each
        self._field: Optional[str] = None  # the text field that word actions answer in, if any
        self._valid_event: Optional[Event] = None
        self._events: List[Event] = []  # every event read since the last observation
        self._own_ids: set = set()  # ids of the env's own validActions queries
        self._said: Optional[List[str]] = []  # None: what the last observation says was said
        self._deferred_reward = 0.0  # levels solved by command(), rewarded at the next step
        self._text = " "
        self._seen: Optional[Event] = None  # the engine's last observation event (protocol §5.20)
        self._observe_command: Command = {"type": "observe", "maxActions": max_actions}
        self._completed = 0  # the levels the game had completed at the last observation
        self._new_levels_seen = 0  # levels completed since the last step's reward
        self._observation: Any = None
        self._engine_key: Optional[tuple] = None
        self._start_blob: Optional[str] = None
        self._before: set = set()  # the levels complete when the episode began (from progress events)
        self._query = 0

    # ----------------------------------------------------------------------------------------------
    # Gymnasium API

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        super().reset(seed=seed)
        options = dict(options or {})
        start = options.pop("snapshot", None)
        unknown = set(options) - set(self.defaults)
        if unknown:
            raise ValueError(f"unknown reset options: {sorted(unknown)}")
        self.settings = {**self.defaults, **options}
        key = self._settings_key()
        alive = self.engine is not None and not self.engine._eof and self.engine.process.poll() is None
        self.steps = 0
        self.solved = []
        self._deferred_reward = 0.0
        self.terminated = False
        self.truncated = False
        self.words = []
        self._word_set = set()
        self._texts_heard = set()
        self._word_entries = []
        self.episodes += 1
        started = False
        if alive and key == self._engine_key and (seed is None or int(seed) == self.engine_seed):
            try:
                if seed is None:
                    self._replay()
                else:
                    self._restore_start()
            except EfbClientError:
                started = True
        else:
            started = True
        if started:
            self._start_engine(key, int(seed) if seed is not None else self._draw_seed())
        if start is not None:
            self._restore(start)
        # Levels solved before the episode began (in a snapshot started from) earn nothing, and
        # what was said before it is no part of it.
        self._new_levels_seen = 0
        self._completed = self._seen.get("completed", 0) if self._seen is not None else 0
        self._before = set((self.engine.progress or {}).get("completed", []))
        self._said = []
        self._strip_said()
        self._observation = self._observe()
        return self._observation, self._info(events=[], invalid=False)

    def step(self, action: Any):
        return self._step_end(self._step_begin(action))

    def _step_begin(self, action: Any) -> Any:
        """Writes the commands of an action without waiting for their replies (the vector env
        writes to every engine before reading any); returns what :meth:`_step_end` needs."""
        if self.engine is None:
            raise RuntimeError("call reset() before step()")
        index, text = self._parse_action(action)
        if self.terminated or self.truncated:
            return "ended"
        self.steps += 1
        commands = self._commands_of(index, text)
        if commands is None:
            return None
        if self.settings["ms_per_step"]:
            commands.append({"type": "wait", "ms": int(self.settings["ms_per_step"])})
        try:
            return self._write_step(commands)
        except EfbClientError:
            return "stopped"

    def _step_end(self, pending: Any, want_info: bool = True, observe: bool = True):
        """Reads a step's replies; returns what ``step`` returns (with ``observe=False`` the
        observation is not built: the vector env writes its text into its own arrays)."""
        if pending == "ended":
            if self._observation is None:  # (the vector env did not ask for it)
                self._observation = self._observe()
            info = self._info(events=[], invalid=True) if want_info else {}
            return self._observation, 0.0, self.terminated, self.truncated, info
        events: List[Event] = []
        reward = 0.0
        invalid = pending is None
        if invalid:
            reward = self.invalid_action_reward
            self._said = []
        else:
            try:
                if pending == "stopped":
                    raise EfbClientError("the engine stopped")
                self._read_step(pending)
            except EfbClientError:
                self.truncated = True  # the engine stopped: nothing more can happen
            events = self._take_events()
            reward = self.level_reward * self._take_new_levels() + self._deferred_reward
            self._deferred_reward = 0.0
        if self.max_steps is not None and self.steps >= self.max_steps:
            self.truncated = True
        if observe:
            self._observation = self._observe()
        else:
            self._observation = None
            self._observation_text()
        info = self._info(events=events, invalid=invalid) if want_info else {}
        if self.render_mode == "human":
            self.render()
        return self._observation, reward, self.terminated, self.truncated, info

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._text
        if self.render_mode == "human":
            print(self._text + "\n")
        return None

    def close(self) -> None:
        self._stop_engine()
        super().close()

    # ----------------------------------------------------------------------------------------------
    # Beyond Gymnasium

    @property
    def text(self) -> str:
        """The observation's text."""
        return self._text

    def valid_indices(self) -> List[int]:
        """The valid action indices, in order (none once the episode has ended)."""
        return [index for first, count in self._valid_spans() for index in range(first, first + count)]

    def action_masks(self) -> Any:
        """Which indices are valid actions now: a numpy bool array (a list without numpy)."""
        size = self.max_actions + self.max_words
        mask: Any = [False] * size if np is None else np.zeros(size, dtype=bool)
        for first, count in self._valid_spans():
            mask[first : first + count] = [True] * count
        return mask

    def _valid_spans(self) -> List[Tuple[int, int]]:
        """Where the valid indices are, as (first, count) runs: the gestures, then the words on a
        screen with a text field; none once the episode has ended. Every mask is made from these."""
        if self.terminated or self.truncated or self.engine is None:
            return []
        spans = [(0, len(self.valid_actions))]
        if self._field is not None:
            spans.append((self.max_actions, len(self.words)))
        return spans

    def command(self, command: Command) -> Reply:
        """Sends a command outside the action space (navigation such as ``focus`` or ``next``, or a
        report such as ``state``) and returns its :class:`efb_client.Reply`. It is no step: it
        earns no reward, and levels it solves are rewarded at the next step. The observation and
        the valid actions are brought up to date."""
        if self.engine is None:
            raise RuntimeError("call reset() before command()")
        reply = self._run([dict(command)])[0]
        self._take_events()
        self._deferred_reward += self.level_reward * self._take_new_levels()
        self._observation = self._observe()
        return reply

    def snapshot(self) -> str:
        """The whole game now, as the engine's snapshot blob: ``reset(options={"snapshot": blob})``
        starts an episode from it (for search, or a curriculum that starts at a hard level)."""
        if self.engine is None:
            raise RuntimeError("call reset() before snapshot()")
        reply = self.engine.send({"type": "snapshot"}, check=True)
        return reply.first("snapshot")["blob"]

    @property
    def screen(self) -> Optional[Event]:
        """The screen on show (kept current by the client's screen model; out of date when
        ``omit_events`` leaves out ``screen``, as the vector env does)."""
        return self.engine.screen if self.engine else None

    # ----------------------------------------------------------------------------------------------
    # Internals

    def _draw_seed(self) -> int:
        generator = self.np_random
        if hasattr(generator, "integers"):
            return int(generator.integers(0, 2**63 - 1))
        return generator.randrange(2**63 - 1)

    def _settings_key(self) -> tuple:
        """What an engine is started with, besides its seed."""
        return (
            self.settings["locale"],
            bool(self.settings["hints_at_once"]),
            bool(self.settings["time_pressure"]),
            tuple(self.settings["engine_args"]),
            tuple(self.omit_events),  # (said in the engine's hello, when it starts)
        )

    def _engine_args(self, seed: int) -> List[str]:
        """The ``efb pipe`` options of an engine for the settings, with ``seed``."""
        args = ["--seed", str(seed), "--clock", "virtual", "--memory-save"]
        if self.settings["locale"]:
            args += ["--locale", self.settings["locale"]]
        if self.settings["hints_at_once"]:
            args.append("--hints-at-once")
        if not self.settings["time_pressure"]:
            args.append("--no-time-pressure")
        return args + list(self.settings["engine_args"])

    def _start_engine(self, key: tuple, seed: int, engine: Optional[Engine] = None) -> None:
        """Starts an engine for the settings with ``seed``, or takes ``engine``, a game of an
        :class:`efb_client.EnginePool` started so (the vector env's)."""
        self._stop_engine()
        self.engine_seed = seed
        self._events = []
        self._own_ids = set()
        if engine is None:
            engine = Engine(
                args=self._engine_args(seed),
                binary=self.binary,
                hello=self._hello(),
                protocol=(1, 1),
                check=False,
                stderr="capture",
            )
            self.engines_started += 1
        engine.on_event = self._events.append
        self._events.extend(engine.opening)  # (read before it was ours: its first screen's words)
        self.engine = engine
        self._engine_key = key
        self.total_levels = None
        self._seen = None
        # The game at its start, for the next reset(seed=) with this seed.
        reply = self.engine.send({"type": "snapshot", "id": "env-start"}, check=False)
        snapshot = reply.first("snapshot")
        self._start_blob = snapshot.get("blob") if snapshot else None
        self._run([])
        self._take_events()

    def _hello(self) -> Dict[str, Any]:
        hello: Dict[str, Any] = {"client": "efb_gym"}
        if self.omit_events:
            hello["omit"] = list(self.omit_events)
        return hello

    def _replay(self) -> None:
        """A new game in the running engine."""
        reply = self._run([{"type": "replay"}])[0]
        if reply.errors:  # (the assistive screen refuses it: a new engine then)
            raise EfbClientError(f"replay was refused: {reply.errors[0].get('message')}")
        self._take_events()
        self._said = []

    def _restore_start(self) -> None:
        """The game as the engine started it, from its snapshot."""
        if self._start_blob is None:
            raise EfbClientError("no snapshot of the start")
        self._restore(self._start_blob)

    def _restore(self, blob: str) -> None:
        reply = self._run([{"type": "restore", "blob": blob}, {"type": "state"}])[0]
        if reply.errors:
            raise ValueError(f"the snapshot could not be restored: {reply.errors[0].get('message')}")
        self._take_events()
        self._said = []

    def _stop_engine(self) -> None:
        if isinstance(self.engine, PooledGame):
            self.engine = None  # (its pool's owner ends it)
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

    def _commands_of(self, index: Optional[int], text: Optional[str]) -> Optional[List[Command]]:
        """The commands an action stands for, or ``None`` when it is not valid now."""
        if index is None:
            return None
        if 0 <= index < len(self.valid_actions):
            entry = self.valid_actions[index]
            command = dict(entry["command"])
            if entry.get("needsText"):
                command["text"] = self.default_text if text is None else str(text)
            return [command]
        word = index - self.max_actions
        if self._field is not None and 0 <= word < len(self.words):
            return [
                {"type": "input", "element": self._field, "text": self.words[word]},
                {"type": "activate", "element": self._field},
            ]
        return None

    def _run(self, commands: List[Command]) -> List[Reply]:
        """Sends ``commands`` and a ``validActions`` query, pipelined; returns the commands' replies."""
        return self._read(self._write(commands))

    def _write(self, commands: List[Command]) -> List[Any]:
        """Writes ``commands`` and a ``validActions`` query in one write; returns their ids."""
        self._query += 1
        query = f"env-{self._query}"
        self._own_ids.add(query)
        self._own_ids.add(query + "-text")
        engine = self.engine
        asked = list(commands) + [{"type": "validActions", "id": query}, dict(self._observe_command, id=query + "-text")]
        prepared = [engine._prepare(command) for command in asked]
        for command, (_, key, _) in zip(asked, prepared):
            engine._register(key, command["type"])
        engine._write(b"".join(line for _, _, line in prepared))
        engine.commands_sent += len(prepared)
        return [(request_id, key) for request_id, key, _ in prepared]

    def _read(self, pending: List[Any]) -> List[Reply]:
        # (The queries' ids stay in _own_ids until _take_events has left their events out.)
        replies = [self.engine._collect(request_id, key, False) for request_id, key in pending]
        self._set_valid(replies[-2].first("validActions"))
        self._take_observation(replies[-1].first("observation"))
        return replies[:-2]

    def _write_step(self, commands: List[Command]) -> Any:
        """Writes a step's commands and the ``validActions`` query as one ``batch`` line (one line
        and one ``done`` a step: most of a step's cost is per line and per event); returns what
        :meth:`_read_step` needs."""
        engine = self.engine
        self._query += 1
        request_id = f"env-step-{self._query}"
        key = ("str", request_id)
        engine._register(key, "batch")
        batch: Command = {"type": "batch", "id": request_id}
        game = getattr(engine, "game", None)
        if game is not None:
            batch["game"] = game
        batch["commands"] = commands + [_VALID_ACTIONS, self._observe_command]
        engine._write(command_line(batch))
        engine.commands_sent += 1
        return request_id, key, commands

    def _read_step(self, pending: Any) -> None:
        request_id, key, commands = pending
        events = self.engine._collect(request_id, key, False)  # (a Reply: a list of events)
        # (The reply is [validActions,] observation, done: read from its end, without a search.)
        seen = events[-2] if len(events) >= 2 else None
        if seen is not None and seen.get("type") == "observation":
            self._take_observation(seen)
            if len(events) >= 3 and events[-3].get("type") == "validActions":
                self._set_valid(events[-3])
            # (Else the step left the valid actions as they were: the engine did not send them again.)
        else:
            # The batch was refused, all or nothing (its error is the step's, and said): the step's
            # time still passes, then the actions and the observation as they stand.
            wait = [command for command in commands if command.get("type") == "wait"]
            self._read(self._write(wait))

    def _set_valid(self, event: Optional[Event]) -> None:
        if event is not None:
            previous = self._valid_event
            self._valid_event = event
            if previous is not None and previous.get("actions") == event.get("actions"):
                return  # the same actions as at the last step (most steps): what was drawn from them stays
        actions = self._valid_event.get("actions", []) if self._valid_event else []
        self.valid_actions = actions = actions[: self.max_actions]  # (a copy)
        self._field = None
        for action in actions:
            if action.get("needsText"):
                element = action.get("command", {}).get("element")
                if element:
                    self._field = element
                    break

    def _hear(self, text: Optional[str]) -> None:
        if not text or len(self.words) >= self.max_words or text in self._texts_heard:
            return
        if len(self._texts_heard) < 100_000:  # (only a shortcut: bounded, whatever the adventure)
            self._texts_heard.add(text)
        words = _heard.get(text)
        if words is None:
            words = words_of(text)
            if len(_heard) < 100_000:  # bounded, whatever the adventure
                _heard[text] = words
        for word in words:
            if word not in self._word_set:
                if len(self.words) >= self.max_words:
                    return
                self._word_set.add(word)
                self.words.append(word)

    def _take_events(self) -> List[Event]:
        """The events read since the last call, without the env's own queries."""
        own = self._own_ids  # (empty while stepping: a step's queries are in its batch)
        if not self._events:
            own.clear()
            return []
        # (Emptied in place: engine.on_event is this list's append, or a hook that calls it.)
        read = self._events[:]
        del self._events[:]
        events: List[Event] = []
        solved = self.solved
        for event in read:
            kind = event.get("type")
            if kind == "validActions" or kind == "observation" or (own and event.get("replyTo") in own):
                continue
            events.append(event)
            if kind == "progress":
                for level in event.get("completed", []):
                    if level not in solved and level not in self._before:
                        solved.append(level)
            elif kind == "ended" and event.get("reason") == "escaped":
                self.terminated = True
        own.clear()
        return events

    def _take_observation(self, seen: Optional[Event]) -> None:
        """Takes the engine's observation (``observe``, protocol §5.20): its text, the words of
        what was heard, the levels completed since the last one, the end of the game."""
        if seen is None:
            return
        self._seen = seen
        self._said = None  # (read from the text when info asks)
        heard = seen.get("heard")
        if heard:
            for text in heard:
                self._hear(text)
        # Levels are rewarded as the count passes its highest in the episode: a count that falls (a
        # restore sent through command(), say) earns nothing until it climbs past it again.
        completed = seen.get("completed", 0)
        if completed > self._completed:
            self._new_levels_seen += completed - self._completed
            self._completed = completed
        self.total_levels = seen.get("total", self.total_levels)
        if seen.get("kind") == "end":
            self.terminated = True

    def _take_new_levels(self) -> int:
        new, self._new_levels_seen = self._new_levels_seen, 0
        return new

    def _strip_said(self) -> None:
        """Leaves out of the observation what was said before the episode began."""
        seen = self._seen
        if seen is None:
            return
        text = seen.get("text", "")
        part = _said_part(text)
        if part is not None:
            self._seen = dict(seen, text=text[: part[0]] + text[part[1] :])

    def _observe(self) -> Any:
        text = self._observation_text()
        if self.observation == "text":
            return text
        return {"text": encode(text, self.max_length), "action_mask": self.action_masks().astype(np.int8)}

    def _observation_text(self) -> str:
        """Makes the observation's text (:attr:`text`) and returns it: the engine's (``observe``),
        without the actions once the episode has ended, and with the words that can be answered
        on a screen with a text field."""
        seen = self._seen
        text = seen.get("text", " ") if seen is not None else " "
        if self.terminated or self.truncated:
            end = text.rfind("\nactions:")
            if end >= 0:
                text = text[: end + len("\nactions:")]
        elif self._field is not None and self.words:
            first, count = self.max_actions, len(self.words)
            text += f"\n{first}-{first + count - 1}: answer with one of the {count} words heard"
        self._text = sanitize(text, self.max_length) if self.observation == "text" else text
        return self._text

    def _info(self, *, events: List[Event], invalid: bool) -> Dict[str, Any]:
        engine = self.engine
        screen = self._seen or engine.screen or {}
        ended = self.terminated or self.truncated
        valid: List[Dict[str, Any]] = []
        if not ended:
            valid = [
                {
                    "index": index,
                    "label": action.get("label", ""),
                    "element": action.get("element"),
                    "command": dict(action.get("command", {})),
                    "needs_text": bool(action.get("needsText")),
                }
                for index, action in enumerate(self.valid_actions)
            ]
            if self._field is not None:
                entries = self._word_entries
                if entries and entries[0]["element"] != self._field:
                    del entries[:]
                # (Made once per word and field: an open question may offer hundreds at every step.)
                entries += [
                    {
                        "index": self.max_actions + j,
                        "label": f"answer {word}",
                        "element": self._field,
                        "command": {"type": "input", "element": self._field, "text": word},
                        "needs_text": False,
                        "word": word,
                    }
                    for j, word in enumerate(self.words[len(entries) :], start=len(entries))
                ]
                valid += entries
        return {
            "valid_actions": valid,
            "action_mask": self.action_masks(),
            "invalid_action": invalid,
            "text": self._text,
            "words": list(self.words),
            "screen": screen.get("screen"),  # (the observation's, or the model's)
            "kind": screen.get("kind"),
            "focus": self._seen.get("focus") if self._seen is not None else engine.model.focused_id,
            "said": list(self._said) if self._said is not None else _said_in(self._seen),
            # (Without seq, which keeps counting across the episodes of one engine: the same seed
            # and actions give the same info.)
            "events": [{k: v for k, v in event.items() if k != "seq"} for event in events],
            "solved": list(self.solved),
            "total_levels": self.total_levels,
            "engine_seed": self.engine_seed,
            "steps": self.steps,
        }


if HAVE_GYMNASIUM:
    _VectorBase: Any = gym.vector.VectorEnv
else:  # pragma: no cover - depends on the machine

    class _VectorBase:  # type: ignore[no-redef]
        metadata: Dict[str, Any] = {}

        def close(self) -> None:
            pass


class EscapeVectorEnv(_VectorBase):
    """``num_envs`` games stepped together in one Python process: a Gymnasium ``VectorEnv`` with the
    spaces of :class:`EscapeEnv` (``observation="dict"``).

    By default (``pool=True``) every game is played by one engine process hosting them all
    (``efb pipe --games N``, protocol section 13, through :class:`efb_client.EnginePool`): a step
    writes every game's commands in one write, and the engine answers them while Python reads and
    builds the observations of the games already answered. ``pool=False`` gives each game an
    engine of its own. Episodes reset on the step after they end (Gymnasium's ``NEXT_STEP``
    autoreset), in the same engine. ``infos`` hold ``"text"``, the observation texts. Keyword
    arguments go to each :class:`EscapeEnv`; env ``i`` is seeded ``seed + i`` (a list of seeds that
    do not follow each other so starts an engine per game).

        from efb_gym import EscapeVectorEnv
        envs = EscapeVectorEnv(8)
        obs, infos = envs.reset(seed=1)
        obs, rewards, terminations, truncations, infos = envs.step(actions)   # one index per game
    """

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP if HAVE_GYMNASIUM else "next_step"}

    def __init__(self, num_envs: int, *, pool: bool = True, **kwargs: Any):
        if np is None:
            raise RuntimeError("EscapeVectorEnv needs numpy")
        kwargs["observation"] = "dict"
        # Every observation comes whole from the engine (observe): none of the game's events is read.
        kwargs.setdefault("omit_events", GAME_EVENTS)
        self.envs = [EscapeEnv(**kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.pooled = pool
        #: The engine hosting every game (an :class:`efb_client.EnginePool`), or ``None``.
        self.pool: Optional[EnginePool] = None
        self._pool_key: Optional[tuple] = None
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        size = first.max_actions + first.max_words
        if HAVE_GYMNASIUM:
            self.observation_space = gym.vector.utils.batch_space(first.observation_space, num_envs)
            self.action_space = gym.vector.utils.batch_space(first.action_space, num_envs)
        self._size = size
        self._ones = b"\x01" * size
        self._mask = np.zeros((num_envs, size), dtype=np.int8)
        self._done = np.zeros(num_envs, dtype=bool)

    def _batch(self) -> Dict[str, Any]:
        """The observations of every env (each with its text made), as new arrays: the bytes are
        written into zeroed buffers a row at a time (a slice assignment each, far cheaper than
        numpy's per-call cost for rows this short), then seen as arrays without a copy."""
        length, size, ones = self.envs[0].max_length, self._size, self._ones
        text = bytearray(self.num_envs * length)
        mask = bytearray(self.num_envs * size)
        for index, env in enumerate(self.envs):
            data = _encoded(env.text, length)
            start = index * length
            text[start : start + len(data)] = data
            start = index * size
            for first, count in env._valid_spans():
                mask[start + first : start + first + count] = ones[:count]
        masks = np.frombuffer(mask, dtype=np.int8).reshape(self.num_envs, size)
        self._mask = masks.copy()  # (action_masks() reads its own: the caller may write into what it was given)
        return {"text": np.frombuffer(text, dtype=np.uint8).reshape(self.num_envs, length), "action_mask": masks}

    def reset(self, *, seed: Optional[Any] = None, options: Optional[Dict[str, Any]] = None):
        if isinstance(seed, (list, tuple)):
            seeds = list(seed)
        else:
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        if self.pooled:
            seeds = self._pool_games(seeds, options)
        texts = []
        for index, env in enumerate(self.envs):
            env.reset(seed=seeds[index], options=options)
            texts.append(env.text)
        self._done[:] = False
        return self._batch(), {"text": np.array(texts, dtype=object)}

    def _pool_games(self, seeds: List[Optional[int]], options: Optional[Dict[str, Any]]) -> List[Optional[int]]:
        """Gives every env its game of one pool with the seeds asked for (a new pool when the seeds
        or the engine's settings change); returns the seeds the envs are then reset with."""
        first = self.envs[0]
        settings = {**first.defaults, **{k: v for k, v in dict(options or {}).items() if k != "snapshot"}}
        first.settings = settings
        key = first._settings_key()
        alive = self.pool is not None and not self.pool._eof and self.pool.process.poll() is None
        if alive and all(s is None for s in seeds) and self._pool_key is not None and self._pool_key[1] == key:
            return seeds  # a new episode in every game of the running pool
        base = int(seeds[0] if seeds[0] is not None else first._draw_seed())
        if any(s is not None and int(s) != base + i for i, s in enumerate(seeds)):
            # Seeds that do not follow each other: an engine of its own for each game.
            self._close_pool()
            return seeds
        if not alive or self._pool_key != (base, key):
            self._close_pool()
            self.pool = EnginePool(
                self.num_envs,
                first._engine_args(base),
                first.binary,
                hello=first._hello(),
                protocol=(1, 1),
                check=False,
                stderr="capture",
            )
            self._pool_key = (base, key)
            for index, env in enumerate(self.envs):
                env.settings = dict(settings)
                env._start_engine(key, base + index, engine=self.pool.games[index])
        return [base + index for index in range(self.num_envs)]

    def _close_pool(self) -> None:
        if self.pool is not None:
            for env in self.envs:
                if isinstance(env.engine, PooledGame):
                    env.engine = None
            self.pool.close(timeout=2.0)
            self.pool = None
            self._pool_key = None

    def step(self, actions: Any):
        # The collector is held off while the step runs: a step makes thousands of short-lived
        # dicts (the events), and collecting while they live only walks them again and again; they
        # are freed by their counts when the step ends, so the collector finds them gone.
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            return self._step(actions)
        finally:
            if collecting:
                gc.enable()

    def _step(self, actions: Any):
        actions = np.asarray(actions).reshape(self.num_envs).tolist() if np.ndim(actions) else [actions]
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        pending: List[Any] = [None] * self.num_envs
        pool = self.pool
        if pool is not None:
            pool.cork()  # the games' commands in a few writes
        for index, env in enumerate(self.envs):
            if not self._done[index]:
                pending[index] = env._step_begin(actions[index])
            if pool is not None and index % _FLUSH_EVERY == _FLUSH_EVERY - 1:
                # The engine starts on the first games while the next ones' lines are made.
                self._flush_pool(pool)
                pool.cork()
        if pool is not None:
            self._flush_pool(pool)
        texts = []
        for index, env in enumerate(self.envs):
            if self._done[index]:
                env.reset()
                self._done[index] = False
            else:
                _, reward, terminated, truncated, _ = env._step_end(pending[index], want_info=False, observe=False)
                rewards[index], terminations[index], truncations[index] = reward, terminated, truncated
                self._done[index] = terminated or truncated
            texts.append(env.text)
        return self._batch(), rewards, terminations, truncations, {"text": np.array(texts, dtype=object)}

    def action_masks(self) -> Any:
        return self._mask != 0

    @staticmethod
    def _flush_pool(pool: EnginePool) -> None:
        try:
            pool.flush()
        except EfbClientError:
            pass  # the engine stopped: each game's step says so (truncated)

    def close(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
        self._close_pool()


#: The id under which the env is registered with Gymnasium: ``gymnasium.make(ENV_ID)``.
ENV_ID = "EscapeFromBlindness-v0"

if HAVE_GYMNASIUM and ENV_ID not in gym.registry:
    # ``gymnasium.make_vec(ENV_ID, num_envs=N)`` gives EscapeVectorEnv (one engine hosting every game),
    # not Gymnasium's SyncVectorEnv of N engines stepped one after another (about 9 times slower).
    gym.register(id=ENV_ID, entry_point=f"{__name__}:EscapeEnv", vector_entry_point=f"{__name__}:EscapeVectorEnv")


# --------------------------------------------------------------------------------------------------
# Agents


LEVEL_KINDS = frozenset({"closedQuestion", "openQuestion", "rotor", "customActions", "dials"})


def run_random_agent(
    env: EscapeEnv,
    steps: int,
    seed: int = 0,
    text_pool: Sequence[str] = ("glass", "7", ""),
    until_every_kind: bool = False,
) -> Dict[str, Any]:
    """Plays ``steps`` steps of random valid actions (uniform over the mask, with a random text from
    ``text_pool`` where a gesture types one; now and then an arbitrary index), resetting at the end
    of an episode. Returns counts, and the level kinds (``closedQuestion``, ``openQuestion``, ...)
    reached and solved. With ``until_every_kind`` it stops as soon as it has reached every kind."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    totals: Dict[str, Any] = {"steps": 0, "reward": 0.0, "episodes": 1, "invalid": 0, "reached": set(), "solved": set()}
    kinds: Dict[str, str] = {}  # level screen -> its kind
    level_kind = None
    for _ in range(steps):
        choices = info["valid_actions"]
        if choices and rng.random() > 0.05:
            action = rng.choice(choices)
            step: Any = (action["index"], rng.choice(list(text_pool))) if action["needs_text"] else action["index"]
        else:
            step = rng.randrange(env.action_space.n)  # now and then an arbitrary index
        obs, reward, terminated, truncated, info = env.step(step)
        totals["steps"] += 1
        totals["reward"] += reward
        totals["invalid"] += bool(info["invalid_action"])
        screen = env.screen or {}
        if screen.get("kind") == "level":
            level_kind = screen.get("levelKind") or _level_kind(screen)
            if level_kind:
                totals["reached"].add(level_kind)
                kinds[screen.get("screen")] = level_kind
        if reward > 0:
            for event in info["events"]:
                if event.get("type") == "progress":
                    for level in event.get("completed", []):
                        kind = kinds.get("level-" + level)
                        if kind and level not in totals.setdefault("_levels", set()):
                            totals["_levels"].add(level)
                            totals["solved"].add(kind)
        if terminated or truncated:
            obs, info = env.reset()
            totals["episodes"] += 1
        if until_every_kind and totals["reached"] >= LEVEL_KINDS:
            break
    totals.pop("_levels", None)
    return totals


def _level_kind(screen: Event) -> Optional[str]:
    """A level screen's kind, from its elements (the screen event does not name it)."""
    elements = screen.get("elements") or []
    traits = [set(e.get("traits") or []) for e in elements]
    if any("textField" in t for t in traits):
        return "openQuestion"
    if any("adjustable" in t for t in traits):
        return "dials"
    if any(e.get("rotors") for e in elements):
        return "rotor"
    if any(e.get("actions") for e in elements):
        return "customActions"
    if any("button" in t for t in traits):
        return "closedQuestion"
    return None


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
            event["gen"] = self.env.engine.gen  # (the list may have been sent before this generation)
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
    ``env.step``; the env keeps ``result`` events from then on (the bot reads them). Returns
    (reached the end, counts)."""
    import bot as reference  # noqa: E402  (the module next to this one)

    # The bot reads the verdicts: an engine that sends them (a new one, if the env's left them out).
    env.omit_events = [kind for kind in env.omit_events if kind != "result"]
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


def _random_actions(masks: Any, rng: Any) -> Any:
    """One random valid index per row of ``masks`` (0 where none is valid), each valid index of a
    row equally likely: a uniform draw below the row's count of valid indices, then the index at
    which the running count passes it."""
    running = (np.asarray(masks) != 0).cumsum(axis=1, dtype=np.int32)
    draws = (rng.random(len(running)) * running[:, -1]).astype(np.int32)  # (< the count: random() < 1)
    return (running > draws[:, None]).argmax(axis=1).astype(np.int64)  # (0 where none passes it)


def benchmark(binary: Optional[str], counts: Sequence[int], modes: Sequence[str], seconds: float = 5.0) -> List[Dict[str, Any]]:
    """Env steps per second of random valid actions, for each vector mode and number of envs:
    ``escape`` (:class:`EscapeVectorEnv`, every game in one engine), ``engines`` (the same with an
    engine per game), ``sync`` (Gymnasium's ``SyncVectorEnv``) and ``async`` (``AsyncVectorEnv`` with
    its default shared memory). Each run lasts about ``seconds``, after a
    first reset and a few warm-up steps (not counted)."""
    rng = np.random.default_rng(0)
    results = []
    for mode in modes:
        for count in counts:
            if mode in ("escape", "engines"):
                envs: Any = EscapeVectorEnv(count, binary=binary, pool=mode == "escape")
            else:
                maker = gym.vector.SyncVectorEnv if mode == "sync" else gym.vector.AsyncVectorEnv
                envs = maker([lambda: EscapeEnv(binary) for _ in range(count)])
            try:
                obs, _ = envs.reset(seed=1)
                for _ in range(5):
                    obs, *_ = envs.step(_random_actions(obs["action_mask"], rng))
                steps = 0
                started = time.perf_counter()
                while True:
                    obs, rewards, terminations, truncations, _ = envs.step(_random_actions(obs["action_mask"], rng))
                    steps += count
                    elapsed = time.perf_counter() - started
                    if elapsed >= seconds:
                        break
            finally:
                envs.close()
            results.append({"mode": mode, "envs": count, "steps": steps, "seconds": elapsed, "rate": steps / elapsed})
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Run an agent through the Escape From Blindness Gymnasium env.")
    parser.add_argument("--binary", help="the efb executable (default: $EFB_BINARY, then the repository's build)")
    parser.add_argument("--agent", choices=["random", "bot"], default="random")
    parser.add_argument("--steps", type=int, default=1000, help="steps of the random agent (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--locale", default="en")
    parser.add_argument("--benchmark", metavar="COUNTS", help="measure env steps/s for these numbers of envs (e.g. 1,8,64)")
    parser.add_argument(
        "--modes",
        default="escape,engines,sync,async",
        help="vector envs to measure: escape (EscapeVectorEnv, one engine for all games), engines (EscapeVectorEnv, "
        "an engine per game), sync, async (Gymnasium's; default: all four)",
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measurement (default 5)")
    options = parser.parse_args(argv)
    if options.benchmark:
        counts = [int(c) for c in options.benchmark.split(",")]
        for result in benchmark(options.binary, counts, options.modes.split(","), options.seconds):
            print(f"{result['mode']:>6} {result['envs']:>3} envs: {result['rate']:>8.0f} env steps/s ({result['steps']} in {result['seconds']:.1f} s)", flush=True)
        return 0
    with EscapeEnv(options.binary, locale=options.locale) as env:
        if options.agent == "random":
            totals = run_random_agent(env, options.steps, options.seed)
            print(
                f"random agent: {totals['steps']} steps, {totals['episodes']} episode(s), "
                f"reward {totals['reward']:.2f}, {totals['invalid']} invalid indices, "
                f"level kinds reached: {', '.join(sorted(totals['reached'])) or 'none'}; "
                f"solved: {', '.join(sorted(totals['solved'])) or 'none'} "
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
