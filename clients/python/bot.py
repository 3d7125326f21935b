#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A reference bot that plays Escape From Blindness to its end from the protocol alone.

    python3 clients/python/bot.py [--binary PATH] [--seed N] [--locale en] [--protocol 1.1|1.0]

It starts ``efb pipe --seed N --clock virtual --memory-save --hints-at-once`` and knows nothing
about the adventure: no answer is written here and no content file is read. Like a player, it
remembers every text it meets (screen titles and element labels, announcements, hints, feedback,
rotor items, the results of actions) and works from what the events say:

- intro, chapter and other pages: activates the page's button;
- every level: first asks for ``hint`` until no new hint comes (``--hints-at-once`` unlocks them);
- closed questions (answer buttons): activates the answers, most likely first, until ``result``
  says ``correct``;
- open questions (a ``textField``): types candidate words, numbers and short phrases drawn from
  what it remembers, ranked by how close they stand to the question's and the hints' words, and
  activates the field after each, until one is correct;
- rotors (an element with ``rotors``): focuses it, reads the items of every rotor, then steps to
  each code and activates it until one is correct;
- custom actions (elements with ``actions``): chooses one action per object, trying combinations
  (best-scored first; a wrong complete set resets the level) until the level is solved;
- dials (``adjustable`` elements): reads each dial's values, then tries combinations with the
  screen's magic tap.

Where the engine offers them (``validActions`` in its hello capabilities, or ``--valid-actions
on``), the engine's own list of valid actions is the bot's action space; otherwise the bot derives
the same list from the screen's elements and traits.

It speaks protocol 1.1 by default (``--protocol 1.0`` for 1.0). It reads the screen from the
client's screen model, which applies ``elementChanged`` (1.1) and ``focus`` (1.0) alike, and in 1.1
puts ``ifGen`` on the first gesture of every round trip (``gen`` changes only when the screen does).

Exit status: 0 when the end screen was reached (``ended`` with reason ``escaped`` or a screen of kind
``end``), 1 when the bot gave up, 2 on a usage error. One summary line is printed on stdout.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import os
import re
import sys
import time
import unicodedata
from collections import Counter
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from efb_client import Engine, EfbClientError, Reply, chapter_progress  # noqa: E402

Event = Dict[str, Any]
Command = Dict[str, Any]

# Commands that act on the screen: the first of a round trip carries ifGen in protocol 1.1.
GESTURES = {
    "next", "previous", "first", "last", "focus", "activate", "rotor", "rotorItem", "action", "adjust",
    "input", "magicTap", "escape", "menu", "goto", "assistive",
}

# A bot that gets stuck stops instead of looping for ever.
MAX_COMMANDS = 20000
MAX_TRIES_PER_LEVEL = 3000

# Small language helpers. The ranking works without them (it weighs words by how rare they are in
# what the bot has read); they only add the digits of number words and push filler words last.
NUMBER_WORDS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split(),
    "fr": "zero un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze "
    "seize dix-sept dix-huit dix-neuf vingt".split(),
}
STOPWORDS = {
    "en": set(
        "a an the and or but if of to in on at by for with from into onto over under up down out is are "
        "was were be been being am it its it's this that these those there here you your yours i me my "
        "we our he she him her his they them their what which who whom whose when where why how not no "
        "do does did done have has had can could will would shall should may might must so as than then "
        "too very just also all any each every some such only own same other one's s t".split()
    ),
    "fr": set(
        "a au aux avec ce ces c cet cette d de des du elle elles en est et eu il ils j je l la le les "
        "leur lui m ma mais me mes moi mon n ne nos notre nous on ou par pas pour qu que qui s sa se "
        "ses son sur t ta te tes toi ton tu un une vos votre vous y ici puis quand comme tout tous "
        "dans plus tres si sans sous".split()
    ),
}

# Words after which a noun (the likely shape of an answer) comes.
DETERMINERS = {
    "en": set("the a an its your my his her their our this that these those".split()),
    "fr": set("le la les l un une du des ma ta sa mon ton son mes tes ses ce cet cette ces".split()),
}
# Words that say how many times.
MULTIPLES = {"en": {"once": 1, "twice": 2, "thrice": 3}, "fr": {}}
# Words that ask for a number ("how many", "type the number").
COUNT_CUES = {"en": ["many", "number", "count", "much"], "fr": ["combien", "nombre", "chiffre", "compte"]}

_HINT_PREFIX = re.compile(r"^\s*\w+\s+\d+\s+\w+\s+\d+\s*[:.]\s*", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@functools.lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower case without accents: how the engine compares typed answers, near enough."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@functools.lru_cache(maxsize=65536)
def words(text: str) -> Tuple[str, ...]:
    """The folded words of a text (cached: the same texts are read again and again)."""
    return tuple(_WORD.findall(fold(text)))


def stem(word: str) -> str:
    """A crude, language-blind stem: without a final s, the first five letters (crack, cracked,
    cracks; pond, ponds)."""
    if len(word) > 3 and word.endswith("s"):
        word = word[:-1]
    return word[:5]


def split_sentences(text: str) -> List[str]:
    return [part for part in _SENTENCE_END.split(text) if part.strip()]


_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def spelled_out(sentence: str) -> List[str]:
    """Words spelled letter by letter: runs of three or more single capital letters, with at most
    two short words between them ("C, A, F, and an E" gives "CAFE"; "C, A, F, puis un E" too)."""
    runs: List[str] = []
    letters: List[str] = []
    gap = 0
    for token in _TOKEN.findall(sentence):
        if len(token) == 1 and token.isupper():
            letters.append(token)
            gap = 0
        elif letters and len(token) <= 4 and gap < 2:
            gap += 1
        else:
            if len(letters) >= 3:
                runs.append("".join(letters))
            letters, gap = [], 0
    if len(letters) >= 3:
        runs.append("".join(letters))
    return runs


class Sentence(tuple):
    """A sentence read: (the text, its folded words, their stems), worked out once."""

    def __new__(cls, text: str):
        tokens = words(text)
        return super().__new__(cls, (text, tokens, [stem(w) for w in tokens]))

    @property
    def stems(self) -> List[str]:
        return self[2]

    @functools.cached_property
    def word_set(self) -> frozenset:
        return frozenset(self[1])


class Memory:
    """Everything the bot has read, with where it came from, and word rarity over all of it."""

    def __init__(self) -> None:
        #: (text, kind, screen id, its sentences).
        self.texts: List[Tuple[str, str, Optional[str], List[Sentence]]] = []
        self._seen: set = set()
        self._distinct: Counter = Counter()
        self._df: Counter = Counter()
        self._idf: Dict[str, float] = {}

    def add(self, text: Optional[str], kind: str, screen: Optional[str]) -> bool:
        """Remembers a text (once per screen); returns True if it was not known at all."""
        if not text or not text.strip():
            return False
        key = (text, screen)
        if key in self._seen:
            return False
        self._seen.add(key)
        sentences = [Sentence(sentence) for sentence in split_sentences(text)]
        self.texts.append((text, kind, screen, sentences))
        self._distinct[text] += 1
        if self._distinct[text] > 1:
            return False
        for stem_ in {s for sentence in sentences for s in sentence.stems}:
            self._df[stem_] += 1
        self._idf = {}
        return True

    def idf(self, word_stem: str) -> float:
        """How rare a word is in everything read: rare words say more."""
        value = self._idf.get(word_stem)
        if value is None:
            documents = len(self._distinct)
            value = math.log((documents + 1) / (self._df.get(word_stem, 0) + 0.5))
            self._idf[word_stem] = value
        return value

    def count(self, text: str) -> int:
        """On how many screens a text was met."""
        return self._distinct.get(text, 0)


class ValidAction(dict):
    """One thing that can be done now: ``element``, ``command``, ``label``, ``needsText``.

    ``native`` is True when the engine sent it (its command is complete and aimed); derived actions
    carry a bare command that is aimed by focusing the element first.
    """

    @property
    def type(self) -> str:
        return self["command"]["type"]

    @property
    def element(self) -> Optional[str]:
        return self.get("element")


class Bot:
    def __init__(
        self,
        engine: Engine,
        *,
        valid_actions: str = "auto",
        verbose: bool = False,
        locale: str = "en",
        if_gen: Optional[bool] = None,
    ):
        self.engine = engine
        self.verbose = verbose
        self.lang = (locale or "en").split("-")[0].split("_")[0]
        self.memory = Memory()
        self.ended: Optional[Event] = None
        self.solved: List[str] = []
        self.results: List[Event] = []
        self.round_trips = 0
        #: Every command sent after the handshake, in order (without ids and ifGen): a replayable
        #: recording.
        self.history: List[Command] = []
        #: ifGen on the first gesture of each round trip: by default when the session speaks 1.1
        #: and the engine lists the capability.
        self.if_gen = (engine.speaks(1, 1) and "ifGen" in engine.capabilities) if if_gen is None else if_gen
        self.guarded = 0  # round trips sent with ifGen
        self.stale = 0  # of which refused as stale
        self.valid_actions_event: Optional[Event] = None
        self.level_hints: Dict[str, List[str]] = {}
        self.level_feedback: Dict[str, List[str]] = {}
        self.hinted: set = set()
        self.action_results: Dict[Tuple[str, str], str] = {}  # (object, action) -> what was said
        self._after_wrong = False  # within a reply, after a wrong result: feedback follows
        self.use_engine_actions = False
        self.total_levels: Optional[int] = None
        self.chapters: List[Tuple[str, int, int]] = []
        for event in engine.opening:
            self.observe(event)
        # The engine's valid actions are used when it says it has them (or when asked to).
        advertised = "validActions" in engine.capabilities
        self.use_engine_actions = valid_actions == "on" or (valid_actions == "auto" and advertised)

    # ---------------------------------------------------------------------------------------------
    # Talking to the engine

    def log(self, message: str) -> None:
        if self.verbose:
            print(message, file=sys.stderr)

    def do(self, commands: Sequence[Command]) -> List[Reply]:
        """Sends commands pipelined (one round trip) and reads every event they cause.

        With ``if_gen`` (protocol 1.1, where ``gen`` changes only when the screen does), the round
        trip's first gesture carries ``ifGen``: the generation the bot decided on. Should the
        screen have moved under it, the engine refuses it as ``stale`` and the bot reads the state
        again."""
        if self.engine.commands_sent + len(commands) > MAX_COMMANDS:
            raise RuntimeError(f"more than {MAX_COMMANDS} commands: the bot is stuck")
        sent = [dict(command) for command in commands]
        guarded = self.if_gen and self.engine.gen is not None and sent and sent[0]["type"] in GESTURES
        if guarded:
            sent[0]["ifGen"] = self.engine.gen
            self.guarded += 1
        replies = self.engine.send_many(sent, check=False)
        self.round_trips += 1
        self.history.extend(commands)
        if guarded and any(error.get("code") == "stale" for error in replies[0].errors):
            self.stale += 1
            self.log(f"stale: the screen moved before {sent[0]}; reading the state again")
            replies.append(self.engine.send({"type": "state"}, check=False))
            commands = list(commands) + [{"type": "state"}]
        for command, reply in zip(commands, replies):
            if self.verbose:
                shown = {k: v for k, v in command.items() if k != "id"}
                self.log(f"> {shown}")
            self._after_wrong = False
            for event in reply:
                self.observe(event)
                if self.verbose and event.get("type") in ("announce", "result", "error", "ended"):
                    detail = event.get("text") or event.get("outcome") or event.get("message") or event.get("reason")
                    self.log(f"    < {event['type']}: {detail}")
        return replies

    def observe(self, event: Event) -> None:
        kind = event.get("type")
        screen = self.engine.screen["screen"] if self.engine.screen else None
        if kind == "screen":
            screen = event["screen"]
            self.memory.add(event.get("title"), "title", screen)
            for element in event.get("elements", []):
                self.memory.add(element.get("label"), element_kind(element), screen)
                self.memory.add(element.get("hint"), "element-hint", screen)
        elif kind == "announce":
            category = event.get("category")
            text = event.get("text", "")
            if category == "echo":
                return
            if category == "hint":
                text = _HINT_PREFIX.sub("", text)
                hints = self.level_hints.setdefault(screen, [])
                if text not in hints:
                    hints.append(text)
            elif category == "feedback" and self._after_wrong:
                self.level_feedback.setdefault(screen, []).append(text)
            self.memory.add(text, category or "announce", screen)
        elif kind == "rotor":
            self.memory.add(event.get("item"), "rotor-item", screen)
        elif kind == "result":
            self.results.append(event)
            self._after_wrong = event.get("outcome") == "wrong"
            if event.get("outcome") == "correct" and event.get("level") not in self.solved:
                self.solved.append(event["level"])
        elif kind == "progress":
            self.total_levels = event.get("total")
            # Protocol 1.2 says each chapter's progress; older engines leave it to the level menu.
            self.chapters = chapter_progress(event) or self.chapters
        elif kind == "ended":
            self.ended = event
        elif kind == "validActions":
            self.valid_actions_event = event

    # ---------------------------------------------------------------------------------------------
    # The action space

    def actions(self) -> List[ValidAction]:
        """What can be done on the screen on show: from the engine when it offers it, else derived."""
        screen = self.engine.screen
        if self.use_engine_actions:
            event = self.valid_actions_event
            if event is None or event.get("screen") != screen["screen"] or event.get("gen") != self.engine.gen:
                self.do([{"type": "validActions"}])
                event = self.valid_actions_event
            if event is not None and event.get("screen") == screen["screen"]:
                result = []
                for action in event.get("actions", []):
                    entry = ValidAction(action)
                    entry["native"] = True
                    result.append(entry)
                return result
            self.log("the engine sent no validActions: deriving them from the screen")
            self.use_engine_actions = False
        return derive_actions(screen)

    def commands_for(self, action: ValidAction, text: Optional[str] = None, focused: Optional[str] = None) -> List[Command]:
        """The commands that perform an action. ``focused`` is the element focused before them."""
        command = dict(action["command"])
        if action.get("needsText"):
            command["text"] = text or ""
        element = action.element
        if action.get("native") or element is None or command["type"] in ("activate", "input", "focus"):
            return [command]
        # A derived gesture on an element: focus the element first unless it already has the focus.
        if focused == element:
            return [command]
        return [{"type": "focus", "element": element}, command]

    def focused(self) -> Optional[str]:
        focus = self.engine.focus
        return focus["element"]["id"] if focus else None

    # ---------------------------------------------------------------------------------------------
    # Playing

    def finished(self) -> bool:
        if self.ended is not None and self.ended.get("reason") == "escaped":
            return True
        screen = self.engine.screen
        return bool(screen and screen.get("kind") == "end")

    def play(self) -> bool:
        stuck = 0
        last_state = None
        while not self.finished():
            if self.ended is not None:
                return False
            screen = self.engine.screen
            state = (screen["screen"], self.engine.gen, len(self.solved))
            stuck = stuck + 1 if state == last_state else 0
            last_state = state
            if stuck > 3:
                self.log(f"no progress on {screen['screen']}: giving up")
                return False
            kind = screen["kind"]
            self.log(f"== {kind} {screen['screen']}: {screen['title']}")
            if kind == "level":
                if not self.solve_level():
                    return False
            elif kind == "menu":
                self.do([{"type": "escape"}])
            elif kind == "assistive":
                self.do([{"type": "assistive", "active": True}])
            else:
                self.turn_page()
        return True

    def turn_page(self) -> None:
        """Intro and chapter pages: activate the page's button (magic tap if there is none)."""
        actions = self.actions()
        buttons = [a for a in actions if a.type == "activate" and a.element is not None]
        if buttons:
            self.do(self.commands_for(buttons[-1]))
        elif self.engine.screen.get("magicTap"):
            self.do([{"type": "magicTap"}])
        else:
            self.do([{"type": "escape"}])

    def attempt(self, commands: Sequence[Command]) -> Optional[str]:
        """Sends one try; returns the level's outcome ("correct", "wrong", "malformed") or None."""
        screen_before = self.engine.screen["screen"]
        replies = self.do(commands)
        outcome = None
        for reply in replies:
            for event in reply.of_type("result"):
                outcome = event.get("outcome")
        if outcome is None and self.engine.screen["screen"] != screen_before:
            outcome = "left"
        return outcome

    def gather_hints(self) -> None:
        """Asks for hints until one repeats (all are unlocked at once with --hints-at-once)."""
        screen = self.engine.screen["screen"]
        if screen in self.hinted:
            return
        self.hinted.add(screen)
        for _ in range(10):
            before = list(self.level_hints.get(screen, []))
            commands: List[Command] = [{"type": "hint"}] * 3
            if self.use_engine_actions:
                commands.append({"type": "validActions"})  # the list after the hints, for free
            self.do(commands)
            after = self.level_hints.get(screen, [])
            if len(after) - len(before) < 3:
                break

    def solve_level(self) -> bool:
        self.gather_hints()
        start = len(self.solved)
        screen_id = self.engine.screen["screen"]
        actions = self.actions()
        by_type: Dict[str, List[ValidAction]] = {}
        for action in actions:
            by_type.setdefault(action.type, []).append(action)
        elements = {e["id"]: e for e in self.engine.screen["elements"]}
        if any(a.get("needsText") for a in actions):
            ok = self.solve_open(actions)
        elif "rotor" in by_type or "rotorItem" in by_type:
            ok = self.solve_rotor(actions)
        elif "action" in by_type:
            ok = self.solve_custom(actions)
        elif "adjust" in by_type:
            ok = self.solve_dials(actions, elements)
        else:
            ok = self.solve_closed(actions)
        if not ok:
            return False
        return len(self.solved) > start or self.engine.screen["screen"] != screen_id or self.finished()

    # ---------------------------------------------------------------------------------------------
    # Ranking what to try

    def context(self) -> Tuple[List[str], List[str]]:
        """The current level's own texts: (question-like texts, hints and wrong-answer feedback)."""
        screen = self.engine.screen
        own = [screen.get("title", "")]
        for element in screen["elements"]:
            traits = element.get("traits", [])
            if "staticText" in traits or "header" in traits:
                own.append(element.get("label", ""))
        extra = self.level_hints.get(screen["screen"], []) + self.level_feedback.get(screen["screen"], [])
        return own, extra

    def weighted_context(self) -> List[Tuple[str, float]]:
        """The level's texts with how much each says about the answer: the question (every
        static text after the first, which tells the story) and the hints most, then wrong-answer
        feedback, the story and the title least."""
        screen = self.engine.screen
        texts = [(screen.get("title", ""), 0.3)]
        statics = [e.get("label", "") for e in screen["elements"] if "staticText" in e.get("traits", [])]
        if len(statics) >= 2:
            texts.append((statics[0], 0.5))
            statics = statics[1:]
        texts += [(text, 1.5) for text in statics]
        texts += [(text, 1.5) for text in self.level_hints.get(screen["screen"], [])]
        texts += [(text, 1.0) for text in self.level_feedback.get(screen["screen"], [])]
        return texts

    def relevance(self, text: str, keys: Dict[str, float]) -> float:
        return sum(keys.get(s, 0.0) for s in {stem(w) for w in words(text)})

    def keywords(self) -> Dict[str, float]:
        keys: Dict[str, float] = {}
        stop = STOPWORDS.get(self.lang, set())
        for text, weight in self.weighted_context():
            for word in words(text):
                if word in stop or len(word) < 3 and not word.isdigit():
                    continue
                s = stem(word)
                keys[s] = max(keys.get(s, 0.0), weight * max(0.1, self.memory.idf(s)))
        return keys

    def rank_labels(self, items: List[Tuple[Any, str]]) -> List[Any]:
        """Orders things by how well their words match the level's question and hints."""
        keys = self.keywords()
        scored = [(-self.relevance(label, keys), index, item) for index, (item, label) in enumerate(items)]
        scored.sort(key=lambda entry: (entry[0], entry[1]))
        return [item for _, _, item in scored]

    def candidates(self) -> List[str]:
        """Answers to type into an open question, most likely first.

        Every word the bot has read is a candidate. A sentence is relevant when it holds the level's
        key words (those of its title, story, question, hints and wrong-answer feedback, weighted by
        rarity); a word in it scores by that relevance and by how close it stands to a word of the
        question or the hints. Words of the question and the hints themselves score little (an
        answer is seldom spelled out in its question), filler words less, words after a determiner
        more (answers are mostly nouns), numbers more when the question asks for a count. Number
        words also give their digits and digits their words; letters spelled out one by one on the
        level come first; pairs of words come last.
        """
        screen = self.engine.screen["screen"]
        keys = self.keywords()
        stop = STOPWORDS.get(self.lang, set())
        numbers = NUMBER_WORDS.get(self.lang, [])
        # Words of the question and the hints are seldom the answer (the story's may well be);
        # closeness is measured to them.
        own_stems = {stem(w) for t, weight in self.weighted_context() if weight >= 1.0 for w in words(t)}
        determiners = DETERMINERS.get(self.lang, set())
        counting = bool(own_stems & {stem(w) for w in COUNT_CUES.get(self.lang, [])})
        scores: Counter = Counter()
        first_seen: Dict[str, int] = {}
        spelled: List[str] = []

        def add(candidate: str, score: float) -> None:
            first_seen.setdefault(candidate, len(first_seen))
            scores[candidate] += score

        for text, kind, where, sentences in self.memory.texts:
            here = where == screen
            for sentence, tokens, stems in sentences:
                if not tokens:
                    continue
                matched = [i for i, s in enumerate(stems) if s in keys]
                near = [i for i in matched if stems[i] in own_stems]
                rel = sum(keys[s] for s in {stems[i] for i in matched})
                for letters in spelled_out(sentence):
                    # Letters spelled out on the level itself are the strongest clue there is.
                    if here:
                        spelled.append(fold(letters))
                    else:
                        add(fold(letters), 10.0 + rel)
                for i, word in enumerate(tokens):
                    if len(word) < 2 and not word.isdigit():
                        continue
                    others = [abs(i - j) for j in near if stems[j] != stems[i]]
                    proximity = 1.0 / (1 + min(others)) if others else 0.02
                    score = (0.1 + rel) * proximity * math.sqrt(max(0.2, self.memory.idf(stems[i])))
                    if stems[i] in own_stems:
                        score *= 0.05
                    if word in stop:
                        score *= 0.05
                    if i and tokens[i - 1] in determiners:
                        score *= 2.0
                    is_number = word in numbers or word.isdigit()
                    if counting and is_number:
                        score *= 4.0
                    add(word, score)
                    if word in numbers:
                        add(str(numbers.index(word)), score * 0.9)
                    elif word.isdigit() and int(word) < len(numbers):
                        add(numbers[int(word)], score * 0.9)
                for a, b in zip(tokens, tokens[1:]):
                    if a not in stop and b not in stop:
                        add(f"{a} {b}", 0.01 * rel)
        ranked = sorted(scores, key=lambda c: (-scores[c], first_seen[c]))
        return list(dict.fromkeys(spelled + ranked))

    # ---------------------------------------------------------------------------------------------
    # The level kinds

    def solve_closed(self, actions: List[ValidAction]) -> bool:
        elements = {e["id"]: e for e in self.engine.screen["elements"]}
        buttons = [
            a
            for a in actions
            if a.type == "activate" and a.element in elements and "button" in elements[a.element].get("traits", [])
        ]
        if not buttons:
            # Nothing to choose: the screen's main gesture is all there is.
            outcome = self.attempt([{"type": "magicTap"}])
            return outcome is not None
        for action in self.rank_labels([(a, a.get("label", "")) for a in buttons]):
            outcome = self.attempt(self.commands_for(action))
            if outcome in ("correct", "left") or self.finished():
                return True
        return False

    def solve_open(self, actions: List[ValidAction]) -> bool:
        fields = [a for a in actions if a.get("needsText")]
        field = fields[0]
        element = field.element
        submit = next((a for a in actions if a.type == "activate" and a.element == element), None)
        tried = set()
        tries = 0
        while tries < MAX_TRIES_PER_LEVEL:
            fresh = [c for c in self.candidates() if fold(c) not in tried]
            if not fresh:
                return False
            # Re-rank after every few wrong answers: their feedback is new material.
            for candidate in fresh[:8]:
                tried.add(fold(candidate))
                tries += 1
                commands = self.commands_for(field, text=candidate)
                commands += self.commands_for(submit) if submit else [{"type": "activate", "element": element}]
                outcome = self.attempt(commands)
                if outcome in ("correct", "left") or self.finished():
                    self.log(f"   answered {candidate!r} after {tries} tries")
                    return True
        return False

    def solve_rotor(self, actions: List[ValidAction]) -> bool:
        element = next(a.element for a in actions if a.type in ("rotor", "rotorItem"))
        by_type = {(a.type, a["command"].get("direction")): a for a in actions if a.element == element}
        activate = next((a for a in actions if a.type == "activate" and a.element == element), None)

        def gesture(kind: str, direction: str) -> List[Command]:
            action = by_type.get((kind, direction))
            if action is None:
                return [{"type": kind, "direction": direction}]
            return self.commands_for(action, focused=element)

        # Focus the element: the rotor event says which rotor is on and how many items it has.
        replies = self.do([{"type": "focus", "element": element}])
        rotor = last_event(replies, "rotor") or self.rotor_state(element)
        if rotor is None:
            return False
        rotors: Dict[int, Tuple[str, List[str]]] = {}
        current = rotor
        for _ in range(rotor["rotorCount"]):
            index = current["rotorIndex"]
            # Step through every item of this rotor, then turn to the next rotor: one round trip.
            commands = gesture("rotorItem", "next") * current["itemCount"]
            if rotor["rotorCount"] > 1:
                commands += gesture("rotor", "next")
            replies = self.do(commands)
            items: Dict[int, str] = {}
            for reply in replies:
                for event in reply.of_type("rotor"):
                    if event.get("rotorIndex") == index and event.get("itemIndex") is not None:
                        items[event["itemIndex"]] = event.get("item") or ""
            rotors[index] = (current["rotor"], [items.get(i, "") for i in range(1, current["itemCount"] + 1)])
            current = last_event(replies, "rotor") or current
        # A rotor whose items are the screen's own texts reads clues; the other one holds codes.
        labels = {e.get("label") for e in self.engine.screen["elements"]}
        order = sorted(rotors, key=lambda i: (sum(t in labels for t in rotors[i][1]), i))
        hints_numbers = self.number_sequences()
        for rotor_index in order:
            _, items = rotors[rotor_index]
            # Turn to this rotor.
            while current["rotorIndex"] != rotor_index:
                replies = self.do(gesture("rotor", "next"))
                current = last_event(replies, "rotor") or current
            ranked = sorted(range(len(items)), key=lambda i: (-score_code(items[i], hints_numbers), i))
            for target in ranked:
                position = current.get("itemIndex")
                count = current["itemCount"]
                moves = steps_between(position, target + 1, count)
                commands: List[Command] = []
                for direction in moves:
                    commands += gesture("rotorItem", direction)
                commands += self.commands_for(activate) if activate else [{"type": "activate"}]
                replies = self.do(commands)
                current = last_event(replies, "rotor") or current
                outcome = None
                for reply in replies:
                    result = reply.first("result")
                    if result:
                        outcome = result["outcome"]
                if outcome == "correct" or self.finished():
                    return True
                if outcome != "wrong":
                    break  # this rotor does not hold codes
            current = self.rotor_state(element) or current
        return False

    def rotor_state(self, element: str) -> Optional[Event]:
        reply = self.do([{"type": "state"}])[0]
        rotor = reply.first("rotor")
        return rotor if rotor and rotor.get("element") == element else None

    def number_sequences(self) -> List[List[str]]:
        """The numbers said in each of the level's texts (and remembered ones), in order, as digits."""
        numbers = NUMBER_WORDS.get(self.lang, [])
        own, extra = self.context()
        sequences = []
        for text in own + extra:
            sequence = []
            for word in words(text):
                if word.isdigit():
                    sequence.append(word)
                elif word in numbers:
                    sequence.append(str(numbers.index(word)))
            if sequence:
                sequences.append(sequence)
        return sequences

    def solve_custom(self, actions: List[ValidAction]) -> bool:
        objects: Dict[str, List[ValidAction]] = {}
        for action in actions:
            if action.type == "action":
                objects.setdefault(action.element, []).append(action)
        names = list(objects)
        tried = set()
        for _ in range(MAX_TRIES_PER_LEVEL):
            keys = self.keywords()
            choice_scores = {}
            for element, options in objects.items():
                for option in options:
                    name = option["command"].get("name", "")
                    said = self.action_results.get((element, name), "")
                    choice_scores[(element, name)] = self.relevance(name + " " + said, keys)
            best = None
            for combination in itertools.islice(best_first(names, objects, choice_scores), 5000):
                key = tuple(option["command"].get("name") for option in combination)
                if key not in tried:
                    best = combination
                    break
            if best is None:
                return False
            tried.add(tuple(option["command"].get("name") for option in best))
            commands: List[Command] = []
            focused = self.focused()
            for option in best:
                commands += self.commands_for(option, focused=focused)
                focused = option.element
            replies = self.do(commands)
            self.note_action_results(commands, replies)
            outcome = None
            for reply in replies:
                result = reply.first("result")
                if result:
                    outcome = result["outcome"]
            if outcome == "correct" or self.finished() or self.engine.screen["kind"] != "level":
                return True
        return False

    def note_action_results(self, commands: Sequence[Command], replies: Sequence[Reply]) -> None:
        focused = self.focused()
        for command, reply in zip(commands, replies):
            if command["type"] == "focus":
                focused = command["element"]
            elif command["type"] == "action":
                element = command.get("element", focused)
                said = " ".join(e.get("text", "") for e in reply.of_type("announce") if e.get("category") == "feedback")
                self.action_results[(element, command.get("name", ""))] = said

    def solve_dials(self, actions: List[ValidAction], elements: Dict[str, Event]) -> bool:
        """Dials: learn each dial's values by turning it once round, then try combinations, the
        most likely first (see :meth:`dial_combinations`), each with the screen's magic tap."""
        dials: List[str] = []
        for action in actions:
            if action.type == "adjust" and action.element not in dials:
                dials.append(action.element)
        gestures = {(a.element, a["command"].get("direction")): a for a in actions if a.type == "adjust"}
        start = {dial: (elements.get(dial) or {}).get("value", "") for dial in dials}
        seen: Dict[str, List[str]] = {dial: [start[dial]] for dial in dials}
        turning = list(dials)
        # Turn every dial until its first value comes back, ten steps per dial per round trip.
        for _ in range(20):
            if not turning:
                break
            commands: List[Command] = []
            owners: List[Optional[str]] = []
            focused = self.focused()
            for dial in turning:
                for _ in range(10):
                    for command in self.commands_for(gestures[(dial, "increment")], focused=focused):
                        commands.append(command)
                        owners.append(dial if command["type"] == "adjust" else None)
                    focused = dial
            replies = self.do(commands)
            for owner, reply in zip(owners, replies):
                # The dial as the reply left it: an elementChanged in 1.1, a focus in 1.0.
                element = reply.element(owner) if owner is not None else None
                if element is not None:
                    seen[owner].append(element.get("value", ""))
            turning = [dial for dial in turning if start[dial] not in seen[dial][1:]]
        values: Dict[str, List[str]] = {}
        position: Dict[str, int] = {}
        for dial in dials:
            ring = seen[dial]
            values[dial] = ring[: ring.index(start[dial], 1)] if start[dial] in ring[1:] else list(dict.fromkeys(ring))
            # Where each dial stands now: the last value it showed.
            position[dial] = values[dial].index(ring[-1]) if ring[-1] in values[dial] else 0
        labels = {dial: (elements.get(dial) or {}).get("label", dial) for dial in dials}
        try_action = next((a for a in actions if a.type == "magicTap"), None)
        for tries, combination in enumerate(self.dial_combinations(dials, values, labels)):
            if tries >= MAX_TRIES_PER_LEVEL:
                break
            commands = []
            focused = self.focused()
            for dial, target in zip(dials, combination):
                for direction in steps_between(position[dial] + 1, target + 1, len(values[dial])):
                    gesture = gestures[(dial, "increment" if direction == "next" else "decrement")]
                    commands += self.commands_for(gesture, focused=focused)
                    focused = dial
                position[dial] = target
            commands += self.commands_for(try_action) if try_action else [{"type": "magicTap"}]
            outcome = self.attempt(commands)
            if outcome in ("correct", "left") or self.finished():
                return True
        return False

    def dial_combinations(self, dials: List[str], values: Dict[str, List[str]], labels: Dict[str, str]):
        """Every combination of dial values (as index tuples), the most likely first.

        Each value of each dial scores by how close it stands, in the level's texts and in what
        the bot remembers, to the words of that dial's label (and, one step further, to the words
        that stand next to the label's words in the level's own texts). Values said in order in
        one sentence score as a sequence (the first said goes on the first dial, the last on the
        last). When the dials hold single letters, letter pairs frequent in the words read so far
        favour combinations that look like words.
        """
        stop = STOPWORDS.get(self.lang, set())
        screen = self.engine.screen["screen"]
        unary = {dial: [0.0] * len(values[dial]) for dial in dials}
        label_stems = {dial: {w for w in words(labels[dial]) if w not in stop and len(w) > 2} for dial in dials}
        shared = set.intersection(*label_stems.values()) if len(dials) > 1 else set()
        level_sentences = [tokens for text, _ in self.weighted_context() for _, tokens in sentences_of(text)]
        value_tokens = {dial: [words(value) for value in values[dial]] for dial in dials}
        # Only sentences that say one of the values can score.
        value_words = {token for dial in dials for value in value_tokens[dial] for token in value[:1]}
        memory_sentences = [
            (sentence[1], 1.0 if where == screen else 0.3)
            for _, _, where, sentences in self.memory.texts
            for sentence in sentences
            if not value_words.isdisjoint(sentence.word_set)
        ]
        memory_sentences += [(tokens, 1.0) for tokens in level_sentences if not value_words.isdisjoint(tokens)]
        letters = all(len(v) == 1 and v.isalpha() for dial in dials for v in values[dial])

        def find(tokens: List[str], value: List[str]) -> List[int]:
            if not value:
                return []
            n = len(value)
            return [i for i in range(len(tokens) - n + 1) if tokens[i : i + n] == value]

        for d, dial in enumerate(dials):
            own = label_stems[dial] - shared
            keys = {k: 1.0 for k in own}
            # One step further: the words next to the label's words in the level's own texts.
            for tokens in level_sentences:
                for i, token in enumerate(tokens):
                    if any(related(token, k) for k in own):
                        for j in range(max(0, i - 4), min(len(tokens), i + 5)):
                            if j != i and tokens[j] not in stop and len(tokens[j]) > 2:
                                keys.setdefault(tokens[j], 0.5)
            if not keys or letters:
                continue
            memo: Dict[str, float] = {}

            def weight_of(token: str) -> float:
                found = memo.get(token)
                if found is None:
                    found = max((w for k, w in keys.items() if related(token, k)), default=0.0)
                    memo[token] = found
                return found

            for tokens, weight in memory_sentences:
                hits = [(i, w) for i, w in ((i, weight_of(t)) for i, t in enumerate(tokens)) if w]
                if not hits:
                    continue
                for v, value in enumerate(value_tokens[dial]):
                    for position in find(tokens, value):
                        unary[dial][v] += weight * sum(w / (1 + abs(position - i)) for i, w in hits if i != position)
        # Values said in order: the first said on the first dial, the last on the last.
        for text, _ in self.weighted_context():
            said = self.values_said(text, dials, values, letters)
            if not said:
                continue
            if len(set(said)) > len(dials) + 1:
                continue  # a list of every value, not a combination
            first, last = said[0], said[-1]
            if first in values[dials[0]]:
                unary[dials[0]][values[dials[0]].index(first)] += 3.0
            if len(said) > 1 and last in values[dials[-1]]:
                unary[dials[-1]][values[dials[-1]].index(last)] += 3.0
            if len(said) == len(dials):
                for dial, value in zip(dials, said):
                    if value in values[dial]:
                        unary[dial][values[dial].index(value)] += 3.0
        pair = self.letter_pairs() if letters else None
        yield from best_combinations(dials, values, unary, pair)

    def values_said(self, text: str, dials: List[str], values: Dict[str, List[str]], letters: bool) -> List[str]:
        """The dial values a text says, in order (single letters only as capitals, like "R")."""
        known = {value for dial in dials for value in values[dial]}
        said = []
        if letters:
            for sentence in split_sentences(text):
                # A capital letter opening a sentence is a word ("A climbing plant"), not a letter.
                for index, token in enumerate(_TOKEN.findall(sentence)):
                    if index and len(token) == 1 and token.isupper() and token in known:
                        said.append(token)
            return said
        folded = {fold(value): value for value in known}
        numbers = NUMBER_WORDS.get(self.lang, [])
        for token in words(text):
            if token in folded:
                said.append(folded[token])
            elif token in numbers and str(numbers.index(token)) in known:
                said.append(str(numbers.index(token)))
            elif token in MULTIPLES.get(self.lang, {}) and str(MULTIPLES[self.lang][token]) in known:
                said.append(str(MULTIPLES[self.lang][token]))
        return said

    def letter_pairs(self) -> Dict[Tuple[str, str], float]:
        """Log-frequencies of letter pairs (with word starts and ends) in every word read."""
        counts: Counter = Counter()
        for _, _, _, sentences in self.memory.texts:
            for _, tokens, _ in sentences:
                for token in tokens:
                    padded = "^" + token + "$"
                    for a, b in zip(padded, padded[1:]):
                        counts[(a, b)] += 1
        total = sum(counts.values()) or 1
        return {key: math.log((count + 0.5) / total) for key, count in counts.items()} | {("", ""): math.log(0.5 / total)}

    # ---------------------------------------------------------------------------------------------

    def summary(self, elapsed: float, ok: bool) -> str:
        total = self.total_levels or "?"
        how = "engine validActions" if self.use_engine_actions else "derived from screens"
        status = "escaped" if ok else "FAILED"
        major, minor = self.engine.version
        guard = f", ifGen on {self.guarded} round trips ({self.stale} stale)" if self.if_gen else ""
        chapters = ""
        if self.chapters:
            chapters = " [" + ", ".join(f"{name} {solved}/{total}" for name, solved, total in self.chapters) + "]"
        return (
            f"{status}: {len(self.solved)}/{total} levels solved{chapters} ({len(self.results)} tries), "
            f"{self.engine.commands_sent} commands sent "
            f"in {self.round_trips} round trips, {self.engine.events_read} events, "
            f"{elapsed * 1000:.1f} ms wall (protocol {major}.{minor}, actions: {how}{guard})"
        )


# -------------------------------------------------------------------------------------------------
# Helpers


def element_kind(element: Event) -> str:
    traits = element.get("traits", [])
    if "header" in traits:
        return "title"
    if "button" in traits:
        return "button-label"
    if "textField" in traits:
        return "field-label"
    return element.get("id", "text")


def derive_actions(screen: Event) -> List[ValidAction]:
    """The valid actions of a screen, from its elements and traits (what the engine would list)."""
    actions: List[ValidAction] = []

    def add(element: Optional[str], command: Command, label: str, needs_text: bool = False) -> None:
        actions.append(ValidAction(element=element, command=command, label=label, needsText=needs_text, native=False))

    for element in screen.get("elements", []):
        traits = element.get("traits", [])
        if "notEnabled" in traits:
            continue
        eid, label = element["id"], element.get("label", "")
        if "textField" in traits:
            add(eid, {"type": "input", "text": "", "element": eid}, label, True)
            add(eid, {"type": "activate", "element": eid}, label)
        elif "button" in traits:
            add(eid, {"type": "activate", "element": eid}, label)
        if "adjustable" in traits:
            for direction in ("increment", "decrement"):
                add(eid, {"type": "adjust", "direction": direction}, f"{label}: {direction}")
        if element.get("rotors"):
            for direction in ("next", "previous"):
                add(eid, {"type": "rotor", "direction": direction}, f"rotor: {direction}")
                add(eid, {"type": "rotorItem", "direction": direction}, f"rotor item: {direction}")
        for name in element.get("actions", []) or []:
            add(eid, {"type": "action", "name": name}, f"{label}: {name}")
    if screen.get("magicTap"):
        add(None, {"type": "magicTap"}, screen["magicTap"].get("label", ""))
    if screen.get("escape"):
        add(None, {"type": "escape"}, screen["escape"].get("label", ""))
    if screen.get("kind") == "level":
        add(None, {"type": "hint"}, "hint")
    return actions


def last_event(replies: Sequence[Reply], event_type: str) -> Optional[Event]:
    for reply in reversed(replies):
        event = reply.last(event_type)
        if event is not None:
            return event
    return None


def steps_between(position: Optional[int], target: int, count: int) -> List[str]:
    """Directions to go from item ``position`` (1-based, None before the first) to ``target``,
    on a list of ``count`` items that wraps around."""
    if position is None:
        forward, backward = target, count - target + 1
    else:
        forward = (target - position) % count
        backward = (position - target) % count
    return ["next"] * forward if forward <= backward else ["previous"] * backward


def related(word: str, other: str) -> bool:
    """Loose matching of a dial's label words: one word begins the other, three letters at
    least (sow, sowing; woke, woken; kill, killed)."""
    if len(word) < 3 or len(other) < 3:
        return word == other
    return word.startswith(other) or other.startswith(word)


def sentences_of(text: str) -> List[Tuple[str, List[str]]]:
    return [(sentence, words(sentence)) for sentence in split_sentences(text)]


def best_combinations(
    dials: List[str],
    values: Dict[str, List[str]],
    unary: Dict[str, List[float]],
    pair: Optional[Dict[Tuple[str, str], float]],
    beam: int = 400,
):
    """Index tuples of dial values, best first: by the sum of each value's score (plus, for
    letters, how word-like the letters are), found by a beam search; then every other one."""
    def pair_score(a: str, b: str) -> float:
        if pair is not None:
            return pair.get((fold(a), fold(b)), pair[("", "")])
        # Dials on one ring of values: neighbours on the ring go together a little more often
        # (a scale sung downwards, a count going up).
        if a in ring and b in ring and len(ring) > 2:
            distance = abs(ring.index(a) - ring.index(b))
            if min(distance, len(ring) - distance) == 1:
                return 0.5
        return 0.0

    rings = {tuple(values[dial]) for dial in dials}
    ring = list(next(iter(rings))) if len(rings) == 1 else []

    # Rank each dial's values by score, so the exhaustive tail also starts with the likely ones.
    order = {dial: sorted(range(len(values[dial])), key=lambda i: -unary[dial][i]) for dial in dials}
    scale = 1.0 if pair is None else 0.3
    states: List[Tuple[float, Tuple[int, ...]]] = [(0.0, ())]
    for d, dial in enumerate(dials):
        grown = []
        for score, prefix in states:
            previous = values[dials[d - 1]][prefix[-1]] if prefix else ("^" if pair is not None else "")
            for i in order[dial]:
                value = values[dial][i]
                gain = unary[dial][i] + scale * pair_score(previous, value)
                if ring and pair is None and i in prefix:
                    gain -= 1.0  # dials on one ring seldom repeat a value
                if d == len(dials) - 1 and pair is not None:
                    gain += scale * pair_score(value, "$")
                grown.append((score + gain, prefix + (i,)))
        grown.sort(key=lambda entry: -entry[0])
        states = grown[:beam]
    tried = set()
    for _, combination in states:
        tried.add(combination)
        yield combination
    for combination in itertools.product(*(order[dial] for dial in dials)):
        if combination not in tried:
            yield combination


def score_code(code: str, sequences: List[List[str]]) -> float:
    """How well a code matches the numbers said in the texts: digits in the same order score most."""
    digits = re.findall(r"\d+", code)
    flat = "".join(digits)
    if not flat:
        return 0.0
    best = 0.0
    for sequence in sequences:
        joined = "".join(sequence)
        if joined and joined == flat:
            best = max(best, 100.0)
        # Longest common subsequence of the code's digits and the text's numbers.
        best = max(best, lcs(flat, joined) + (1.0 if flat[0] == joined[:1] else 0) + (1.0 if flat[-1] == joined[-1:] else 0))
    return best


def lcs(a: str, b: str) -> int:
    if not a or not b:
        return 0
    previous = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
        previous = row
    return previous[-1]


def best_first(names: List[str], objects: Dict[str, List[ValidAction]], scores: Dict[Tuple[str, str], float]):
    """Every choice of one action per object, the highest total score first."""
    ranked = {
        element: sorted(options, key=lambda o: -scores.get((element, o["command"].get("name", "")), 0.0))
        for element, options in objects.items()
    }
    combinations = itertools.product(*(ranked[n] for n in names))
    total = 1
    for n in names:
        total *= len(ranked[n])
    if total > 50000:
        yield from combinations
        return

    def value(combination):
        return -sum(scores.get((o.element, o["command"].get("name", "")), 0.0) for o in combination)

    yield from sorted(combinations, key=value)


# -------------------------------------------------------------------------------------------------
# Entry points


def run(
    binary: Optional[str] = None,
    seed: int = 1,
    locale: Optional[str] = "en",
    verbose: bool = False,
    valid_actions: str = "auto",
    extra_args: Sequence[str] = (),
    protocol: Any = None,
    if_gen: Optional[bool] = None,
) -> Tuple[bool, str, Bot]:
    """Plays one whole game; returns (reached the end, summary line, the bot).

    ``protocol`` is what the handshake offers (see ``efb_client.protocol_field``): by default 1.0 to
    1.1, so the engine picks 1.1; ``"1.0"`` plays in 1.0."""
    started = time.perf_counter()
    args = ["--seed", str(seed), "--clock", "virtual", "--memory-save", "--hints-at-once"]
    if locale:
        args += ["--locale", locale]
    args += list(extra_args)

    def hello(engine_hello: Event) -> Dict[str, Any]:
        # Ask for the valid actions after every focus when the engine lists the capability (or
        # when told to ask anyway: an engine without the feature ignores the field).
        fields: Dict[str, Any] = {"client": "efb reference bot"}
        listed = "validActions" in engine_hello.get("capabilities", [])
        if valid_actions == "on" or (valid_actions == "auto" and listed):
            fields["want"] = ["validActions"]
        return fields

    with Engine(args=args, binary=binary, hello=hello, protocol=protocol, check=False, stderr="capture") as engine:
        bot = Bot(engine, valid_actions=valid_actions, verbose=verbose, locale=locale or "en", if_gen=if_gen)
        try:
            ok = bot.play()
        except (EfbClientError, RuntimeError) as error:
            bot.log(f"stopped: {error}")
            ok = False
    elapsed = time.perf_counter() - started
    return ok, bot.summary(elapsed, ok), bot


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="the efb executable (default: $EFB_BINARY, then the repository's build)")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    parser.add_argument("--locale", default="en", help="the adventure's language (default en)")
    parser.add_argument("--verbose", action="store_true", help="log every command and what it caused on stderr")
    parser.add_argument(
        "--valid-actions",
        choices=["auto", "on", "off"],
        default="auto",
        help="auto: use the engine's validActions when its hello lists the capability; "
        "on: ask for them even if not listed; off: always derive actions from the screen",
    )
    parser.add_argument("--adventure", help="play this adventure file instead of the shipped one (passed to efb)")
    parser.add_argument(
        "--protocol",
        choices=["1.0", "1.1", "1.2", "1.3", "auto"],
        default="1.1",
        help="the protocol version to speak: 1.1 (default), 1.0, 1.2 (chapter ids), 1.3 (dial ranges), "
        "or auto (the engine picks)",
    )
    parser.add_argument(
        "--if-gen",
        choices=["auto", "on", "off"],
        default="auto",
        help="ifGen on the first gesture of each round trip: auto (in 1.1), on, off",
    )
    options = parser.parse_args(argv)
    extra = ["--adventure", options.adventure] if options.adventure else []
    locale = None if options.adventure else options.locale
    try:
        ok, summary, bot = run(
            options.binary,
            options.seed,
            locale,
            options.verbose,
            options.valid_actions,
            extra,
            protocol=None if options.protocol == "auto" else options.protocol,
            if_gen={"auto": None, "on": True, "off": False}[options.if_gen],
        )
    except FileNotFoundError as error:
        print(f"bot.py: {error}", file=sys.stderr)
        return 2
    if options.verbose:
        tries = Counter(result.get("level") for result in bot.results)
        print("tries per level: " + ", ".join(f"{level} {count}" for level, count in tries.items()), file=sys.stderr)
    print(summary)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
