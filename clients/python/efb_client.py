# SPDX-License-Identifier: Apache-2.0
"""A small standard-library client for the Escape From Blindness engine (``efb pipe``).

The engine speaks newline-delimited JSON: one command per line on its standard input, one event per
line on its standard output. Every command may carry an ``id``; every event the command causes
carries it back as ``replyTo``, and the last one is always a ``done`` event. This module starts the
engine, assigns ids, writes commands and collects each command's events up to its ``done``::

    from efb_client import Engine

    with Engine(args=["--seed", "1", "--clock", "virtual", "--memory-save"]) as engine:
        print(engine.screen["title"])                 # the opening screen, read during the handshake
        reply = engine.send({"type": "next"})         # a Reply: the list of events up to "done"
        print(reply.first("focus")["element"]["label"])
        replies = engine.send_many([{"type": "next"}, {"type": "previous"}])   # pipelined

The handshake negotiates the protocol version: by default the client offers 1.0 to 1.3 and the
engine picks the newest it speaks (:attr:`Engine.version`). In 1.3 an adjustable element (a dial)
carries ``range`` (``{"position": P, "count": N}``: its value's place among its N values) and
``adjust`` also takes ``"first"`` and ``"last"``. In 1.2 chapter pages and level screens
carry ``chapterId`` and ``progress`` carries ``chapterId`` and ``chapters`` (see
:func:`chapter_progress`). In 1.1 every event carries ``gen``, a
changed element is an ``elementChanged`` event instead of a second ``focus``, timed levels send
``timer`` and every burst the engine sends on its own ends with ``idle``. :attr:`Engine.model` keeps
the screen on show up to date from ``screen``, ``focus`` and ``elementChanged`` in both versions.

``Engine(socket=PATH)`` joins a game that ``efb serve`` shares on a Unix domain socket instead of
starting an engine (protocol section 12): the same conversation, with the socket's own rules (the
first client to join controls the game, the others follow it; events of another client's moves
arrive without ``replyTo``). Each client of the socket agrees on its own version, so such a client
speaks 1.3, chapter ids and ranges included, as on the pipe.

Only the standard library is needed (Python 3.8+); when orjson (PyPI) is installed, lines are read
and written with it, about twice as fast as :mod:`json`, with the same events as a result (a command
it cannot write, such as one holding an integer beyond 64 bits, is written by :mod:`json`; orjson
writes a NaN as ``null`` and writes enums and dataclasses, which :mod:`json` would refuse). Nothing
is printed on standard output; the
engine's standard error goes to this process's standard error unless ``stderr="capture"``.

Exceptions:

- :class:`EngineError`: the engine answered with an ``error`` event (only when ``check`` is true);
  it carries ``code``, ``message``, ``field`` and the whole ``reply``.
- :class:`BatchError`: an ``EngineError`` refusing a ``batch`` (nothing of it happened); ``index``
  says which of its commands was at fault.
- :class:`ProtocolViolation`: the engine wrote something that is not the protocol (a line that is
  not a JSON object, no ``type``, ``seq`` not growing, a ``done`` for an unknown id, ...).
- :class:`EngineExited`: the engine's output ended (it exited) while a reply was still expected.
- :class:`EngineTimeout`: no complete reply within ``timeout`` seconds (only when a timeout is set).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import select
import socket as _socket
import struct
import subprocess
import tempfile
import time
from collections import deque
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

try:  # optional: a faster reader and writer of the same JSON
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the machine
    _orjson = None

__all__ = [
    "Engine",
    "EfbClient",
    "Reply",
    "ScreenModel",
    "TimerState",
    "EfbClientError",
    "EngineError",
    "BatchError",
    "ProtocolViolation",
    "EngineExited",
    "EngineTimeout",
    "find_binary",
    "chapter_progress",
    "protocol_field",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
]

#: The protocol (major) version this client speaks.
PROTOCOL_VERSION = 1
#: The ``(major, minor)`` versions this client speaks; by default it offers all of them.
PROTOCOL_VERSIONS = ((1, 0), (1, 1), (1, 2), (1, 3))

Event = Dict[str, Any]
Command = Dict[str, Any]
RequestId = Union[int, str]

# clients/python/efb_client.py -> the repository's root (where .build/ is).
_REPO = pathlib.Path(__file__).resolve().parent.parent.parent


# --------------------------------------------------------------------------------------------------
# Exceptions


class EfbClientError(Exception):
    """Base class of every error this module raises."""


class EngineError(EfbClientError):
    """The engine refused a command with an ``error`` event.

    Attributes: ``code`` (e.g. ``"invalid_params"``, ``"not_now"``, ``"stale"``), ``message``,
    ``field`` (the offending field, or ``None``), ``event`` (the error event), ``reply`` (the whole
    :class:`Reply`, which still ends with its ``done``).
    """

    def __init__(self, event: Event, reply: "Reply"):
        self.event = event
        self.reply = reply
        self.code: str = event.get("code", "")
        self.message: str = event.get("message", "")
        self.field: Optional[str] = event.get("field")
        where = f" (field {self.field})" if self.field else ""
        super().__init__(f"{self.code}: {self.message}{where} [command id {reply.id!r}]")


_BATCH_FIELD = re.compile(r"^commands\[(\d+)\](?:\.(.+))?$")
_BATCH_MESSAGE = re.compile(r"^commands\[(\d+)\]: ")


def batch_failure(error: Event) -> Optional[tuple]:
    """Which command of a ``batch`` an ``error`` event blames: ``(index, field)``, where ``index`` is
    0-based and ``field`` the inner command's field (or ``None``); ``None`` when the error is not
    about one of the batched commands (``field`` ``commands[i]...``, message ``commands[i]: ...``)."""
    match = _BATCH_FIELD.match(error.get("field") or "")
    if match:
        return int(match.group(1)), match.group(2)
    match = _BATCH_MESSAGE.match(error.get("message") or "")
    if match:
        return int(match.group(1)), None
    return None


class BatchError(EngineError):
    """The engine refused a ``batch``: nothing of it happened (batches are all or nothing).

    Besides :class:`EngineError`'s attributes: ``index`` (0-based) of the command at fault, or
    ``None`` when the batch line itself was refused; ``command`` (that command, as given to
    :meth:`Engine.batch`); ``inner_field`` (its field at fault, e.g. ``"element"``, or ``None``).
    """

    def __init__(self, event: Event, reply: "Reply", commands: Sequence[Command] = ()):
        super().__init__(event, reply)
        failure = batch_failure(event)
        self.index: Optional[int] = failure[0] if failure else None
        self.inner_field: Optional[str] = failure[1] if failure else None
        self.command: Optional[Command] = (
            commands[self.index] if self.index is not None and self.index < len(commands) else None
        )
        if self.index is not None:
            self.args = (f"{self.args[0]} [batched command {self.index}: {self.command!r}]",)


class ProtocolViolation(EfbClientError):
    """The engine's output broke the protocol. ``line`` is the offending raw line (bytes), if any."""

    def __init__(self, message: str, line: Optional[bytes] = None):
        self.line = line
        if line is not None:
            shown = line[:200].decode("utf-8", "replace")
            message = f"{message}: {shown!r}"
        super().__init__(message)


class EngineExited(EfbClientError):
    """The engine's output ended while a reply was expected.

    ``returncode`` is the exit status when known; ``stderr`` the captured standard error (only with
    ``stderr="capture"``); ``events`` whatever the pending command had received before the end.
    """

    def __init__(self, message: str, returncode: Optional[int], stderr: str = "", events: Sequence[Event] = ()):
        self.returncode = returncode
        self.stderr = stderr
        self.events = list(events)
        detail = f" (exit status {returncode})" if returncode is not None else ""
        if stderr:
            detail += "; its standard error ends with:\n" + stderr[-2000:]
        super().__init__(message + detail)


class EngineTimeout(EfbClientError):
    """No complete reply arrived within the timeout."""


# --------------------------------------------------------------------------------------------------
# Replies


class Reply(list):
    """The events one command caused, in order, ending with its ``done`` (a ``list`` of dicts).

    ``quit`` replies also hold the ``bye`` that follows the ``done``.
    """

    def __init__(self, request_id: Optional[RequestId], events: Iterable[Event] = ()):
        super().__init__(events)
        #: The id the command was sent with (echoed as ``replyTo``).
        self.id = request_id

    @property
    def errors(self) -> List[Event]:
        """The ``error`` events (empty when the command was carried out)."""
        return [event for event in self if event.get("type") == "error"]

    @property
    def ok(self) -> bool:
        """True when there is no ``error`` event."""
        return not self.errors

    def of_type(self, event_type: str) -> List[Event]:
        """The events of one type, e.g. ``reply.of_type("announce")``."""
        return [event for event in self if event.get("type") == event_type]

    def first(self, event_type: str) -> Optional[Event]:
        """The first event of a type, or ``None``."""
        for event in self:
            if event.get("type") == event_type:
                return event
        return None

    def last(self, event_type: str) -> Optional[Event]:
        """The last event of a type, or ``None``."""
        for event in reversed(self):
            if event.get("type") == event_type:
                return event
        return None

    @property
    def done(self) -> Optional[Event]:
        """The ``done`` event that settled the command."""
        return self.last("done")

    @property
    def gen(self) -> Optional[int]:
        """The state generation after the command (from its ``done``)."""
        done = self.done
        return done.get("gen") if done else None

    def texts(self) -> List[str]:
        """The text of every ``announce`` event."""
        return [event.get("text", "") for event in self if event.get("type") == "announce"]

    @property
    def changed_elements(self) -> List[Event]:
        """The elements this reply said changed (``elementChanged``, 1.1), each as it is now."""
        return [event["element"] for event in self if event.get("type") == "elementChanged" and "element" in event]

    def element(self, element_id: str) -> Optional[Event]:
        """The last state of an element this reply carries, from an ``elementChanged`` (1.1) or a
        ``focus`` on it (which is how 1.0 reports a change of the focused element), or ``None``."""
        for event in reversed(self):
            if event.get("type") in ("elementChanged", "focus"):
                element = event.get("element")
                if isinstance(element, dict) and element.get("id") == element_id:
                    return element
        return None

    @property
    def batch_failure(self) -> Optional[tuple]:
        """For a refused ``batch``: ``(index, field)`` of the batched command at fault (see
        :func:`batch_failure`), else ``None``."""
        for error in self.errors:
            failure = batch_failure(error)
            if failure is not None:
                return failure
        return None

    def __repr__(self) -> str:
        kinds = ", ".join(event.get("type", "?") for event in self)
        return f"Reply(id={self.id!r}, [{kinds}])"


# --------------------------------------------------------------------------------------------------
# The screen on show, and the torch clock


class ScreenModel:
    """The screen on show, kept up to date from the events as they are read.

    ``screen`` is a copy of the last ``screen`` event whose ``elements`` are replaced as the engine
    reports changes; ``focus`` a copy of the last ``focus`` event whose ``element`` is kept current
    too. It applies ``screen``, ``focus`` (in 1.0 a ``focus`` also reports a change of the focused
    element) and ``elementChanged`` (1.1: the element is replaced in the screen, and in the focus
    when it is the focused one). Other events are ignored. After a ``restore`` the engine sends no
    screen: send ``state`` to bring the model back.
    """

    def __init__(self) -> None:
        self.screen: Optional[Event] = None
        self.focus: Optional[Event] = None
        #: The generation of the last event applied that carried one.
        self.gen: Optional[int] = None
        #: How many events have changed the model: what is drawn from it can be kept while this stays.
        self.changes = 0
        #: How many times the elements changed (a new screen, or an element replaced by a different
        #: one): what is drawn from the elements alone can be kept while this stays.
        self.element_changes = 0

    @property
    def id(self) -> Optional[str]:
        """The screen's id, e.g. ``"level-cellar-door"``."""
        return self.screen.get("screen") if self.screen else None

    @property
    def kind(self) -> Optional[str]:
        return self.screen.get("kind") if self.screen else None

    @property
    def elements(self) -> List[Event]:
        """The screen's elements, in reading order, as they are now."""
        return list(self.screen.get("elements", [])) if self.screen else []

    def element(self, element_id: str) -> Optional[Event]:
        """An element of the screen on show, by id, as it is now (``None`` if not on screen)."""
        for element in self.screen.get("elements", []) if self.screen else []:
            if element.get("id") == element_id:
                return element
        return None

    @property
    def focused(self) -> Optional[Event]:
        """The focused element, as it is now."""
        return self.focus.get("element") if self.focus else None

    @property
    def focused_id(self) -> Optional[str]:
        focused = self.focused
        return focused.get("id") if focused else None

    def apply(self, event: Event) -> bool:
        """Applies one event; returns True when it changed the model (and counts it in :attr:`changes`)."""
        changed = self._apply(event)
        if changed:
            self.changes += 1
        return changed

    def _apply(self, event: Event) -> bool:
        kind = event.get("type")
        if isinstance(event.get("gen"), int):
            self.gen = event["gen"]
        if kind == "screen":
            self.screen = dict(event)
            self.screen["elements"] = [dict(e) for e in event.get("elements", []) if isinstance(e, dict)]
            self.focus = None
            self.element_changes += 1
            return True
        if kind == "focus":
            self.focus = dict(event)
            element = event.get("element")
            if isinstance(element, dict) and (self.screen is None or event.get("screen") in (None, self.id)):
                self._replace(element)
            return True
        if kind == "elementChanged":
            element = event.get("element")
            if not isinstance(element, dict):
                return False
            changed = self._replace(element)
            if self.focus is not None and self.focused_id == element.get("id"):
                self.focus = dict(self.focus, element=dict(element))
                changed = True
            return changed
        return False

    def _replace(self, element: Event) -> bool:
        if self.screen is None:
            return False
        elements = self.screen["elements"]
        for index, old in enumerate(elements):
            if old.get("id") == element.get("id"):
                if old == element:
                    return False  # (a focus event repeats the element as it is: it stays the same dict)
                elements[index] = dict(element)
                self.element_changes += 1
                return True
        return False

    def __repr__(self) -> str:
        return f"ScreenModel(screen={self.id!r}, focused={self.focused_id!r}, gen={self.gen!r})"


class TimerState:
    """A timed level's clock, from the last ``timer`` event (protocol 1.1).

    ``limit_ms``, ``remaining_ms`` (when the event was read) and ``paused`` are the event's;
    :meth:`remaining_now` counts down from it on the real clock.
    """

    def __init__(self, event: Event, virtual: bool = False):
        self.event = event
        self.limit_ms: int = event.get("limitMs", 0)
        self.remaining_ms: int = event.get("remainingMs", 0)
        self.paused: bool = bool(event.get("paused", False))
        self.gen: Optional[int] = event.get("gen")
        #: ``time.monotonic()`` when the event was read.
        self.read_at = time.monotonic()
        self.virtual = virtual

    def remaining_now(self) -> int:
        """The time left now, in milliseconds: ``remaining_ms`` less the time since the event on
        the real clock (on the virtual clock, or when paused, time stands still between events)."""
        if self.paused or self.virtual:
            return self.remaining_ms
        elapsed = (time.monotonic() - self.read_at) * 1000.0
        return max(0, int(self.remaining_ms - elapsed))

    def __repr__(self) -> str:
        return f"TimerState(remaining_ms={self.remaining_ms}, limit_ms={self.limit_ms}, paused={self.paused})"


def chapter_progress(progress: Event) -> List[Tuple[str, int, int]]:
    """Each chapter's ``(id, solved, total)`` from a ``progress`` event, in playing order.

    Protocol 1.2 sends them (``chapters``); an older engine does not, and the list is then empty:
    a level's chapter is known only from the level menu there, so nothing is guessed.
    """
    return [(chapter["id"], chapter["completed"], chapter["total"]) for chapter in progress.get("chapters", [])]


def protocol_field(protocol: Any = None) -> Any:
    """The ``protocol`` field of a ``hello`` command for what the client wants to speak.

    ``None`` offers every version this client speaks: ``{"min": [1, 0], "max": [1, 3]}``.
    ``(1, 1)``, ``[1, 1]`` or ``"1.1"`` asks for exactly 1.1. ``(1, 0)``, ``"1.0"`` or ``1`` asks for
    1.0, written as the integer ``1`` that every engine of protocol 1 understands. A list of pairs
    or a ``{"min": ..., "max": ...}`` dict is passed on as it is.
    """
    if protocol is None:
        return {"min": list(PROTOCOL_VERSIONS[0]), "max": list(PROTOCOL_VERSIONS[-1])}
    if isinstance(protocol, str):
        try:
            major, _, minor = protocol.partition(".")
            protocol = (int(major), int(minor or 0))
        except ValueError:
            raise ValueError(f"a protocol version is written like 1.1, not {protocol!r}") from None
    if isinstance(protocol, bool):
        raise TypeError("a protocol version is an int, a (major, minor) pair, a list of pairs or a range")
    if isinstance(protocol, int):
        return protocol
    if isinstance(protocol, dict):
        return {key: list(value) if isinstance(value, (tuple, list)) else value for key, value in protocol.items()}
    if isinstance(protocol, (tuple, list)):
        if len(protocol) == 2 and all(isinstance(part, int) and not isinstance(part, bool) for part in protocol):
            pair = [protocol[0], protocol[1]]
            return pair[0] if pair[1] == 0 else pair
        return [list(pair) for pair in protocol]
    raise TypeError("a protocol version is an int, a (major, minor) pair, a list of pairs or a range")


def _version_of(hello: Optional[Event]) -> Optional[tuple]:
    """The version a ``hello`` event says is spoken: its ``version``, else ``protocol``.0."""
    if not hello:
        return None
    version = hello.get("version")
    if isinstance(version, list) and len(version) == 2 and all(isinstance(v, int) for v in version):
        return (version[0], version[1])
    protocol = hello.get("protocol")
    return (protocol, 0) if isinstance(protocol, int) else None


# --------------------------------------------------------------------------------------------------
# Finding the engine


def find_binary(binary: Optional[str] = None) -> str:
    """The ``efb`` executable: ``binary``, else ``$EFB_BINARY``, else the repository's
    ``.build/release/efb``, else ``.build/debug/efb``. Raises ``FileNotFoundError`` when none exists."""
    explicit = binary or os.environ.get("EFB_BINARY")
    if explicit:
        # Asked for by name: that one or none.
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        raise FileNotFoundError(f"no executable efb at {explicit}")
    for candidate in (_REPO / ".build" / "release" / "efb", _REPO / ".build" / "debug" / "efb"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise FileNotFoundError(
        "no efb binary found: build one (swift build -c release --product efb), "
        "or pass binary=... or set $EFB_BINARY"
    )


# --------------------------------------------------------------------------------------------------
# The engine


class ServedByAnotherUser(EfbClientError):
    """The game on the socket is served by another user: nothing was said to it."""

    def __init__(self, path: str, owner: Optional[int]):
        self.path = path
        self.owner = owner
        who = "an unknown user" if owner is None else f"another user (uid {owner})"
        super().__init__(f"the game on {path} is served by {who}, not by you: efb's client does not speak to it")


def _peer_uid(connected: _socket.socket) -> Optional[int]:
    """The user of the process at the other end of a Unix socket (``SO_PEERCRED``), or ``None``."""
    try:
        credentials = connected.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return None
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return uid


class _Connection:
    """Stands in for the engine's process when the client joined a game that ``efb serve`` shares:
    the socket is both the engine's input and its output, and closing it leaves the game."""

    pid = None

    def __init__(self, path: str):
        self._socket = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            self._socket.connect(path)
            # Before a word is said: the server must be this user (another could have planted the socket).
            owner = _peer_uid(self._socket)
            if owner != os.getuid():
                raise ServedByAnotherUser(path, owner)
        except (OSError, ServedByAnotherUser):
            self._socket.close()
            raise
        self.stdin = self.stdout = self
        #: ``None`` while connected, 0 once closed.
        self.returncode: Optional[int] = None

    def fileno(self) -> int:
        return self._socket.fileno()

    def poll(self) -> Optional[int]:
        return self.returncode

    def wait(self, timeout: Optional[float] = None) -> Optional[int]:
        self.close()
        return self.returncode

    def kill(self) -> None:
        self.close()

    def close(self) -> None:
        if self.returncode is None:
            self.returncode = 0
            self._socket.close()


class Engine:
    """A running ``efb pipe`` and its conversation, or a game ``efb serve`` shares (``socket``).

    Args:
        args: Extra arguments after ``efb pipe``, e.g. ``["--seed", "7", "--clock", "virtual",
            "--memory-save"]``.
        binary: The ``efb`` executable (see :func:`find_binary`).
        hello: ``True`` (default) sends ``{"type": "hello", "protocol": ..., "client": ...}`` at once
            and reads the engine's opening (its unsolicited hello, first screen, focus and progress)
            into :attr:`opening`. A dict adds fields to that hello (``want``, ``keys``,
            ``capabilities``, ``timePressure``, ...). A callable is given the engine's opening
            ``hello`` event (its first line, listing its capabilities) and returns those fields:
            the way to ask only for what the engine has. ``False`` sends nothing: the opening events
            then arrive, unsolicited, with the first command's reply (see :attr:`unsolicited`).
        protocol: The versions to offer in that hello (see :func:`protocol_field`): by default
            1.0 to 1.1, so the engine picks 1.1 when it speaks it; ``(1, 1)`` for 1.1 only; ``(1, 0)``
            (or ``1``) for 1.0. :attr:`version` says what was agreed.
        check: Default for :meth:`send`: raise :class:`EngineError` when a reply holds an ``error``.
        stderr: ``"inherit"`` (default: the engine writes to this process's standard error),
            ``"capture"`` (kept in :attr:`stderr_text`), or ``"discard"``.
        timeout: Seconds to wait for one reply before :class:`EngineTimeout`; ``None`` waits for ever.
        on_event: Called with every event as it is read (for logging or a live display).
        env, cwd: Passed to :class:`subprocess.Popen`.
        socket: The path of the Unix domain socket of a game ``efb serve`` shares: join it instead
            of starting an engine (``args``, ``binary``, ``stderr``, ``env`` and ``cwd`` are then
            unused). The events of joining (the engine's hello, ``role``, the whole state, ``idle``)
            are :attr:`opening`; a client that agrees on 1.2 or later then asks ``state`` once, since it joined
            in 1.1, so that :attr:`progress` and :attr:`screen` carry the chapter fields at once.
            :meth:`close` leaves the game, which goes on; ``send({"type": "quit"})`` from the
            controller ends it for everyone.

    Events without a ``replyTo`` (the opening when ``hello=False``, hints unlocking on the real
    clock, errors about lines that had no readable id) are appended to :attr:`unsolicited`, never
    mixed into a reply; :meth:`read_until_idle` waits for them. The screen on show is kept in
    :attr:`model` (:attr:`screen` and :attr:`focus` are its current copies), the last ``progress``
    in :attr:`progress`, the last ``timer`` in :attr:`timer` and the generation of the last event
    read in :attr:`gen`. Unknown event types and fields are kept and passed on, never refused.
    """

    def __init__(
        self,
        args: Sequence[str] = (),
        binary: Optional[str] = None,
        *,
        hello: Union[bool, Dict[str, Any], Callable[[Event], Dict[str, Any]]] = True,
        protocol: Any = None,
        check: bool = True,
        stderr: str = "inherit",
        timeout: Optional[float] = None,
        on_event: Optional[Callable[[Event], None]] = None,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
        socket: Optional[str] = None,
    ):
        #: The socket of the shared game joined, or ``None`` for an engine of our own.
        self.socket = socket
        self.binary = None if socket is not None else find_binary(binary)
        self.argv = None if socket is not None else [self.binary, "pipe", *args]
        self._init_state(protocol, check, timeout, on_event)

        if socket is not None:
            self.process: Any = _Connection(socket)
            self._in = self._out = self.process.fileno()
            try:
                self._handshake(hello, check)
                if hello and self.speaks(1, 2):
                    # Joining came before our hello: the state again, in the words agreed.
                    self.send({"type": "state"}, check=check)
            except BaseException:
                self.kill()
                raise
            return
        self.process, self._stderr_file = _spawn(self.argv, stderr, env, cwd)
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        try:
            self._handshake(hello, check)
        except BaseException:
            self.kill()
            raise

    def _init_state(self, protocol: Any, check: bool, timeout: Optional[float], on_event: Optional[Callable[[Event], None]]) -> None:
        """The conversation's state before the first line: models, replies awaited, the buffer."""
        self.check = check
        self.timeout = timeout
        self.on_event = on_event
        #: Events that answer no command (no ``replyTo``), in arrival order.
        self.unsolicited: List[Event] = []
        #: The events before the handshake's reply (empty when ``hello=False``).
        self.opening: List[Event] = []
        #: The engine's ``hello`` reply (``None`` until a hello was answered).
        self.hello: Optional[Event] = None
        #: What ``hello`` offered as ``protocol`` (see :func:`protocol_field`).
        self.protocol_offered = protocol_field(protocol)
        self._protocol_default = protocol is None
        #: The screen on show, kept current from screen, focus and elementChanged events.
        self.model = ScreenModel()
        self.progress: Optional[Event] = None
        #: The last ``timer`` event (1.1) of the timed level being played, or ``None``.
        self.timer: Optional[TimerState] = None
        #: The last ``idle`` event (1.1): the end of the last burst the engine sent on its own.
        self.last_idle: Optional[Event] = None
        #: The generation of the last event read that carried one (every event does in 1.1).
        self.gen: Optional[int] = None
        self._engine_hello: Optional[Event] = None  # the last hello event, solicited or not
        #: The last ``seq`` read.
        self.seq = 0
        #: Commands written and events read so far.
        self.commands_sent = 0
        self.events_read = 0
        self._next_id = 1
        self._pending: Dict[Any, List[Event]] = {}  # id key -> events read so far, for sent commands
        self._finished: Dict[Any, Reply] = {}  # replies complete but not yet collected
        self._order: deque = deque()  # id keys in the order their commands were written
        self._quits: set = set()  # keys of quit commands: their reply ends with bye
        self._quit_ended: set = set()  # keys of replies holding an ended event of reason quit
        self._cancels: set = set()  # keys of cancel commands: answered ahead of a wait's queue
        self._buffer = bytearray()
        self._eof = False
        self._closed = False
        self._bye = False
        self._bye_event: Optional[Event] = None
        self._stderr_file = None
        self._stderr_closed_text = ""


    def _handshake(self, hello, check: bool) -> None:
        if hello:
            before = len(self.unsolicited)
            fields = {"client": "efb_client.py"}
            if callable(hello):
                # Negotiation: read the engine's opening hello (always its first line) first.
                while not self.unsolicited:
                    self._read_one(self._deadline())
                opening_hello = self.unsolicited[0]
                if opening_hello.get("type") != "hello":
                    raise ProtocolViolation(f"the engine's first event is {opening_hello.get('type')!r}, not hello")
                fields.update(hello(opening_hello) or {})
            elif isinstance(hello, dict):
                fields.update(hello)
            command = {"type": "hello", "protocol": self.protocol_offered, **fields}
            command.setdefault("id", "hello")
            reply = self.send(command, check=False)
            if self._protocol_default and "protocol" not in fields and any(
                (error.get("field") or "").startswith("protocol") for error in reply.errors
            ):
                # An engine from before version negotiation knows only the integer: speak 1.0
                # (only when the default range was offered; a version asked for is not changed).
                command["protocol"] = self.protocol_offered = PROTOCOL_VERSION
                command["id"] = "hello-1.0"
                reply = self.send(command, check=False)
            self.opening = self.unsolicited[before:]
            del self.unsolicited[before:]
            for error in reply.errors:
                if check:
                    raise EngineError(error, reply)

    # ----------------------------------------------------------------------------------------------
    # Information

    @property
    def capabilities(self) -> List[str]:
        """The capabilities the engine listed in its hello (empty before one arrived)."""
        return list((self.hello or self._engine_hello or {}).get("capabilities", []))

    @property
    def version(self) -> tuple:
        """The protocol version spoken now, ``(major, minor)``: the ``version`` of the engine's last
        ``hello`` (its reply to ours once the handshake is done). ``(1, 0)`` before any hello."""
        return _version_of(self.hello or self._engine_hello) or (PROTOCOL_VERSION, 0)

    @property
    def versions(self) -> List[tuple]:
        """Every version the engine speaks, from its hello (``[(1, 0)]`` for an engine that does not
        say: engines before negotiation spoke 1.0 only)."""
        listed = (self.hello or self._engine_hello or {}).get("versions")
        if isinstance(listed, list):
            return [tuple(v) for v in listed if isinstance(v, list) and len(v) == 2]
        return [self.version]

    @property
    def granted_want(self) -> List[str]:
        """The items of our hello's ``want`` that the engine granted (its reply's ``want``)."""
        return list((self.hello or {}).get("want", []))

    @property
    def granted_omit(self) -> List[str]:
        """The types of events our hello's ``omit`` left out that the engine agreed to leave out
        (its reply's ``omit``; empty from an engine that sends every event)."""
        return list((self.hello or {}).get("omit", []))

    def speaks(self, major: int, minor: int) -> bool:
        """Whether the version agreed is at least ``major.minor``: ``engine.speaks(1, 1)``."""
        return self.version >= (major, minor)

    @property
    def screen(self) -> Optional[Event]:
        """The screen on show (a copy of its last ``screen`` event, with its elements kept current)."""
        return self.model.screen

    @property
    def focus(self) -> Optional[Event]:
        """The focus (a copy of the last ``focus`` event, with its element kept current)."""
        return self.model.focus

    @property
    def pid(self) -> Optional[int]:
        """The engine's process id; ``None`` for a shared game joined on its socket."""
        return self.process.pid

    @property
    def stderr_text(self) -> str:
        """The engine's standard error so far (only with ``stderr="capture"``)."""
        return _captured(self._stderr_file, self._stderr_closed_text)

    # ----------------------------------------------------------------------------------------------
    # Sending

    def _prepare(self, command: Command) -> tuple:
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise TypeError("a command is a dict with a string 'type'")
        if "id" in command and command["id"] is not None:
            request_id = command["id"]
            if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
                raise TypeError("a command id is an int or a str")
            line_command = command
        else:
            request_id = self._next_id
            self._next_id += 1
            line_command = dict(command)
            line_command["id"] = request_id
        key = _key(request_id)
        if key in self._pending or key in self._finished:
            raise ValueError(f"id {request_id!r} is still awaiting its reply")
        return request_id, key, command_line(line_command)

    def send(self, command: Command, *, check: Optional[bool] = None, timeout: Optional[float] = None) -> Reply:
        """Sends one command and returns its events up to its ``done``.

        An ``id`` is added unless the command has one. With ``check`` (default: the engine's
        ``check``) an ``error`` event raises :class:`EngineError`. ``timeout`` replaces the
        engine's for this reply.
        """
        request_id, key, line = self._prepare(command)
        self._register(key, command["type"])
        self._write(line)
        self.commands_sent += 1
        return self._collect(request_id, key, check, timeout)

    def batch(self, commands: Sequence[Command], *, check: Optional[bool] = None, **fields: Any) -> Reply:
        """Runs commands as one ``batch`` line, settled by one ``done``; returns its reply.

        A batch is all or nothing: if any of its commands is refused, nothing of it happened and
        the reply is only an ``error`` (field ``commands[i]...``) and the ``done``. With ``check``
        that raises :class:`BatchError`, whose ``index`` and ``command`` name the command at fault;
        without, ``reply.batch_failure`` gives ``(index, field)``. The batched commands carry no
        ``id`` (each may carry its own ``ifGen``); ``fields`` go on the batch line (``ifGen=...``).
        """
        commands = list(commands)
        for index, command in enumerate(commands):
            if not isinstance(command, dict) or "id" in command:
                raise ValueError(f"batched command {index} must be a dict without an id: {command!r}")
        reply = self.send({"type": "batch", "commands": commands, **fields}, check=False)
        if self.check if check is None else check:
            if reply.errors:
                raise BatchError(reply.errors[0], reply, commands)
        return reply

    def wait(self, ms: int, *, block: bool = True, check: Optional[bool] = None) -> Union[Reply, RequestId]:
        """``wait``: lets ``ms`` milliseconds pass. With ``block`` (default), returns its reply (the
        reply timeout is stretched by ``ms``); with ``block=False`` only writes it and returns its
        id, for :meth:`cancel` and :meth:`events_until_done`. Other commands written meanwhile are
        answered after the wait, in order."""
        if not block:
            return self.write({"type": "wait", "ms": ms})
        extra = None if self.timeout is None else self.timeout + ms / 1000.0
        return self.send({"type": "wait", "ms": ms}, check=check, timeout=extra)

    def cancel(self, target: RequestId, *, check: Optional[bool] = None) -> Reply:
        """``cancel``: ends the pending real-clock ``wait`` whose id is ``target`` at once. The wait
        is answered first (collect it with :meth:`events_until_done`), then this cancel, ahead of
        any command written during the wait. Refused with ``not_now`` when no such wait is pending
        (always on the virtual clock)."""
        return self.send({"type": "cancel", "target": target}, check=check)

    def send_many(self, commands: Sequence[Command], *, check: Optional[bool] = None) -> List[Reply]:
        """Pipelines commands: writes them all, then returns their replies in order.

        Writing and reading are interleaved, so any number of commands can be sent without either
        pipe filling up. With ``check``, the first reply holding an error raises :class:`EngineError`
        after every reply was read (the engine carries out every command either way).
        """
        prepared = [self._prepare(command) for command in commands]
        keys = [key for _, key, _ in prepared]
        if len(set(keys)) != len(keys):
            raise ValueError("two commands share an id")
        for command, (_, key, _) in zip(commands, prepared):
            self._register(key, command["type"])
        self._write(b"".join(line for _, _, line in prepared))
        self.commands_sent += len(prepared)
        replies = [self._collect(request_id, key, False) for request_id, key, _ in prepared]
        if self.check if check is None else check:
            for reply in replies:
                if reply.errors:
                    raise EngineError(reply.errors[0], reply)
        return replies

    def send_raw(self, line: Union[str, bytes]) -> Reply:
        """Writes one raw line (a newline is added if missing) and returns the next reply that answers
        no id of ours: for testing how the engine answers bad input. Never raises EngineError."""
        data = line.encode("utf-8") if isinstance(line, str) else bytes(line)
        if not data.endswith(b"\n"):
            data += b"\n"
        # A line whose id can be read is answered with that id: wait for it like any command.
        try:
            parsed = json.loads(data)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and isinstance(parsed.get("id"), (int, str)) and not isinstance(parsed.get("id"), bool):
            key = _key(parsed["id"])
            if key in self._pending or key in self._finished:
                raise ValueError(f"id {parsed['id']!r} is still awaiting its reply")
            self._register(key, parsed.get("type") if isinstance(parsed.get("type"), str) else None)
            self._write(data)
            self.commands_sent += 1
            return self._collect(parsed["id"], key, False)
        marker = len(self.unsolicited)
        self._write(data)
        self.commands_sent += 1
        while True:
            for index in range(marker, len(self.unsolicited)):
                event = self.unsolicited[index]
                if event.get("type") == "done":
                    events = self.unsolicited[marker : index + 1]
                    del self.unsolicited[marker : index + 1]
                    return Reply(events[-1].get("replyTo"), events)
            self._read_one(deadline=self._deadline())

    def events_until_done(self, request_id: RequestId, *, timeout: Optional[float] = None) -> Reply:
        """Reads until the ``done`` answering ``request_id`` (a command written earlier, e.g. by
        :meth:`write`), and returns that command's events. Other commands' events are kept for them.
        ``timeout`` replaces the engine's for this reply."""
        key = _key(request_id)
        if key not in self._pending and key not in self._finished:
            raise ValueError(f"no command with id {request_id!r} is awaiting its reply")
        return self._collect(request_id, key, False, timeout)

    def write(self, command: Command) -> RequestId:
        """Writes one command without waiting; returns its id, for :meth:`events_until_done`."""
        request_id, key, line = self._prepare(command)
        self._register(key, command["type"])
        self._write(line)
        self.commands_sent += 1
        return request_id

    # Events the engine sends on its own -------------------------------------------------------------

    def read_until_idle(self, timeout: Optional[float] = None) -> Optional[List[Event]]:
        """Protocol 1.1: waits, without sending anything, for the next burst of events the engine
        sends on its own (on the real clock: a hint unlocking, the torch's time, a level starting
        over) and returns it, ``idle`` included, taking it out of :attr:`unsolicited`. Events without
        ``replyTo`` already read count. Returns ``None`` when no burst ended within ``timeout``
        seconds (``None``: wait for ever); what was read stays in :attr:`unsolicited`. Replies to
        commands written earlier are kept for them meanwhile. Raises ``ValueError`` in 1.0, which
        has no ``idle`` (use :meth:`read_unsolicited`), and :class:`EngineExited` if the engine ends.
        """
        if not self.speaks(1, 1):
            raise ValueError(f"idle is a protocol 1.1 event; this session speaks {self.version[0]}.{self.version[1]}")
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.unsolicited):
                if event.get("type") == "idle":
                    burst = self.unsolicited[: index + 1]
                    del self.unsolicited[: index + 1]
                    return burst
            if self._bye or self._eof:
                raise EngineExited("the engine's output ended before an idle", self.process.poll(), self.stderr_text)
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            self._poll(wait)

    def read_unsolicited(self, timeout: float = 0.0) -> List[Event]:
        """Reads whatever the engine writes within ``timeout`` seconds (0: only what has already
        arrived) and returns the events without ``replyTo`` read so far, taking them out of
        :attr:`unsolicited`. Works in 1.0 and 1.1; it never raises for a quiet engine."""
        deadline = time.monotonic() + timeout
        while not self._bye and not self._eof:
            wait = max(0.0, deadline - time.monotonic())
            if not self._poll(wait) and wait <= 0:
                break
        events = list(self.unsolicited)
        del self.unsolicited[:]
        return events

    # Convenience wrappers ---------------------------------------------------------------------------

    def state(self) -> Reply:
        """``state``: the screen, focus, rotor/actions where present, and progress."""
        return self.send({"type": "state"})

    def ping(self) -> Reply:
        """``ping``: answered by a bare ``done``; a liveness check."""
        return self.send({"type": "ping"})

    def close(self, timeout: float = 5.0) -> Optional[Reply]:
        """Sends ``quit`` (expecting ``ended``, ``done`` and ``bye``), closes the pipes and waits for
        the engine to exit. Returns the quit reply, or ``None`` if the engine had already ended.
        A client of a shared game (``socket``) leaves it instead, without ``quit``: the game goes on,
        and ``None`` is returned. Safe to call twice."""
        if self._closed:
            return None
        if self.socket is not None:
            self._close_pipes()
            return None
        reply = None
        try:
            if not self._eof and not self._bye and self.process.poll() is None:
                reply = self.send({"type": "quit"}, check=False)
                if not self._bye:
                    raise ProtocolViolation("quit was not answered with bye")
        finally:
            self._close_pipes()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self._release_stderr()
        return reply

    def _release_stderr(self) -> None:
        """Keeps the captured standard error as text and closes its file."""
        if self._stderr_file is not None:
            self._stderr_closed_text = self.stderr_text
            self._stderr_file.close()
            self._stderr_file = None

    def kill(self) -> None:
        """Stops the engine at once (SIGKILL) without the quit handshake, and closes the pipes."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._close_pipes()
        self._release_stderr()

    def _close_pipes(self) -> None:
        """Marks the engine closed and closes our ends of its pipes."""
        self._closed = True
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, exc_type, exc, traceback) -> None:
        if exc_type is None:
            self.close()
        else:
            try:
                self.close(timeout=1.0)
            except EfbClientError:
                self.kill()

    # ----------------------------------------------------------------------------------------------
    # Internals

    def _register(self, key, command_type: Optional[str] = None) -> None:
        self._pending[key] = []
        self._order.append(key)
        if command_type == "quit":
            self._quits.add(key)
        elif command_type == "cancel":
            self._cancels.add(key)

    def _deadline(self, timeout: Optional[float] = None) -> Optional[float]:
        timeout = self.timeout if timeout is None else timeout
        return None if timeout is None else time.monotonic() + timeout

    def _poll(self, wait: Optional[float]) -> bool:
        """Reads what the engine wrote within ``wait`` seconds (``None``: until something comes) and
        dispatches every complete line; True if there was at least one."""
        if self._drain_lines():
            return True
        if self._eof:
            return False
        readable, _, _ = select.select([self._out], [], [], None if wait is None else max(0.0, wait))
        if not readable:
            return False
        self._fill()
        found = self._drain_lines()
        if self._eof and self._buffer:
            raise ProtocolViolation("the output ended in the middle of a line", bytes(self._buffer))
        return found

    def _write(self, data: bytes) -> None:
        if self._closed or self._eof:
            raise EngineExited("the engine has ended; nothing more can be sent", self.process.poll(), self.stderr_text)
        view = memoryview(data)
        deadline = self._deadline()
        try:
            # A small write with nothing else awaiting a reply goes straight through; otherwise
            # writing is interleaved with reading, so that the engine never blocks on a full output
            # pipe while we block on its full input pipe.
            if len(view) <= 16384 and len(self._order) <= 1:
                os.write(self._in, view)
                return
            os.set_blocking(self._in, False)
            try:
                while view:
                    wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                    readable, writable, _ = select.select([self._out], [self._in], [], wait)
                    if not readable and not writable:
                        raise EngineTimeout(f"could not write within {self.timeout} s")
                    if writable:
                        try:
                            written = os.write(self._in, view[:65536])
                            view = view[written:]
                        except BlockingIOError:
                            pass
                    if readable:
                        self._fill()
                        self._drain_lines()
            finally:
                os.set_blocking(self._in, True)
        except BrokenPipeError:
            self._eof = True
            raise EngineExited("the engine closed its input", self.process.poll(), self.stderr_text) from None

    def _collect(self, request_id, key, check: Optional[bool], timeout: Optional[float] = None) -> Reply:
        deadline = self._deadline(timeout)
        while key not in self._finished:
            self._read_one(deadline, waiting_for=key)
        reply = self._finished.pop(key)
        reply.id = request_id
        # A quit (or a batch ending with quit) is followed by bye after its done; so is a quit after
        # the game escaped, whose reply has no ended.
        is_quit = key in self._quits
        if is_quit:
            self._quits.discard(key)
        if self._cancels:
            self._cancels.discard(key)
        quit_ended = key in self._quit_ended
        if quit_ended:
            self._quit_ended.discard(key)
        if is_quit or quit_ended:
            while not self._bye:
                self._read_one(deadline, waiting_for=key)
            reply.append(self._bye_event)
        if self.check if check is None else check:
            errors = reply.errors
            if errors:
                raise EngineError(errors[0], reply)
        return reply

    def _fill(self) -> None:
        chunk = os.read(self._out, 1 << 16)
        if not chunk:
            self._eof = True
        else:
            self._buffer += chunk

    def _read_one(self, deadline: Optional[float], waiting_for=None) -> None:
        """Reads at least one more line (or hits end of output) and dispatches every complete line."""
        if self._drain_lines():
            return
        if self._eof:
            self._ended(waiting_for)
        if deadline is not None:
            wait = max(0.0, deadline - time.monotonic())
            readable, _, _ = select.select([self._out], [], [], wait)
            if not readable:
                raise EngineTimeout(f"no complete reply within {self.timeout} s")
        self._fill()
        if not self._drain_lines() and self._eof:
            self._ended(waiting_for)

    def _ended(self, waiting_for) -> None:
        if self._buffer:
            raise ProtocolViolation("the output ended in the middle of a line", bytes(self._buffer))
        try:
            returncode = self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            returncode = None
        events = self._pending.get(waiting_for, []) if waiting_for is not None else []
        raise EngineExited("the engine's output ended before the reply was complete", returncode, self.stderr_text, events)

    def _drain_lines(self) -> bool:
        """Dispatches every complete line in the buffer; True if there was at least one."""
        buffer = self._buffer
        start = 0
        found = False
        while True:
            end = buffer.find(b"\n", start)
            if end < 0:
                break
            self._dispatch(bytes(buffer[start:end]))
            start = end + 1
            found = True
        if start:
            del buffer[:start]
        return found

    def _dispatch(self, raw: bytes) -> None:
        try:
            event = _loads(raw)
        except ValueError:
            raise ProtocolViolation("the engine wrote a line that is not JSON", raw) from None
        self._accept(event, raw)

    def _accept(self, event: Any, raw: Optional[bytes]) -> None:
        """Takes one event read (``raw`` is its line, for error messages; a pool passes ``None`` and
        adds the line to the error itself)."""
        # (Every event of every step goes through here: the common case is kept short.)
        if type(event) is not dict:
            raise ProtocolViolation("the engine wrote a JSON value that is not an object", raw)
        event_type = event.get("type")
        seq = event.get("seq")
        if type(event_type) is not str:
            raise ProtocolViolation("an event without a string type", raw)
        if type(seq) is not int or seq <= self.seq:
            raise ProtocolViolation(f"seq does not grow (previous {self.seq})", raw)
        self.seq = seq
        self.events_read += 1
        if self._bye:
            raise ProtocolViolation("an event after bye", raw)

        if event_type in _MODEL_EVENTS:
            self.model.apply(event)
            if event_type == "screen" and event.get("kind") not in ("menu", "assistive"):
                self.timer = None  # a timed level sends its timer after its screen
        elif event_type in _STATE_EVENTS:
            if event_type == "progress":
                self.progress = event
            elif event_type == "hello":
                self._engine_hello = event
                if "replyTo" in event:
                    self.hello = event
            elif event_type == "timer":
                self.timer = TimerState(event, virtual="virtualClock" in self.capabilities)
            elif event_type == "idle":
                self.last_idle = event
        gen = event.get("gen")
        if type(gen) is int:
            self.gen = self.model.gen = gen
        if self.on_event is not None:
            self.on_event(event)

        if event_type == "bye":
            self._bye = True
            self._bye_event = event
            return
        reply_to = event.get("replyTo", _NO_REPLY)
        if reply_to is _NO_REPLY:
            self.unsolicited.append(event)
            return
        key = (type(reply_to).__name__, reply_to)
        events = self._pending.get(key)
        if events is None:
            raise ProtocolViolation("an event answers an id that is not awaiting a reply", raw)
        events.append(event)
        if event_type == "ended" and event.get("reason") == "quit":
            self._quit_ended.add(key)
        elif event_type == "done":
            # Replies come back in the order the commands were written, except that a cancel that
            # arrives during a wait is answered ahead of the commands written before it.
            if self._order and self._order[0] == key:
                self._order.popleft()
            elif key in self._cancels and key in self._order:
                self._order.remove(key)
            else:
                raise ProtocolViolation("a done arrived out of order", raw)
            del self._pending[key]
            self._finished[key] = Reply(reply_to, events)


#: The events that change the screen model, and those that change the rest of the engine's state.
_MODEL_EVENTS = frozenset({"screen", "focus", "elementChanged"})
_STATE_EVENTS = frozenset({"progress", "hello", "timer", "idle"})
_NO_REPLY = object()


class PooledGame(Engine):
    """One game of an :class:`EnginePool`: an :class:`Engine` whose lines carry its ``game`` and go
    through the pool's one pipe (protocol section 13). Everything an :class:`Engine` offers works
    on it; it ends with its pool (:meth:`close` leaves the pool running)."""

    def __init__(self, pool: "EnginePool", game: int, *, hello: Any, protocol: Any, check: bool,
                 timeout: Optional[float], on_event: Optional[Callable[[Event], None]]):
        #: The pool, and this game's number in it.
        self.pool = pool
        self.game = game
        self.socket = None
        self.binary = pool.binary
        self.argv = pool.argv
        self.process = pool.process
        self._in = pool._in
        self._out = pool._out
        self._init_state(protocol, check, timeout, on_event)
        self._fresh = False  # events arrived since _drain_lines last looked

    @property
    def stderr_text(self) -> str:
        return self.pool.stderr_text

    def _handshake(self, hello, check: bool) -> None:
        # Its opening may have been read while an earlier game's handshake waited: it is still its opening.
        early = len(self.unsolicited)
        super()._handshake(hello, check)
        if hello:
            self.opening = self.unsolicited[:early] + self.opening
            del self.unsolicited[:early]

    def _prepare(self, command: Command) -> tuple:
        if isinstance(command, dict) and command.get("game", self.game) != self.game:
            raise ValueError(f"a command of game {self.game} names game {command['game']!r}")
        return super()._prepare({**command, "game": self.game} if isinstance(command, dict) else command)

    def _write(self, data: bytes) -> None:
        if self._closed or self._eof:
            raise EngineExited("the engine has ended; nothing more can be sent", self.process.poll(), self.stderr_text)
        self.pool._send(data)

    def send_raw(self, line: Union[str, bytes]) -> Reply:
        """As :meth:`Engine.send_raw`, for this game: a JSON object without ``game`` gets this game's.
        The game that answers a line sends it: a line naming another game is refused here (a
        ``ValueError``), and one whose game the engine cannot read (not JSON, not an object, a
        ``game`` out of range) is game 0's."""
        data = line.encode("utf-8") if isinstance(line, str) else bytes(line)
        try:
            parsed = json.loads(data)
        except ValueError:
            parsed = None
        answered_by = 0  # a line whose game the engine cannot read is game 0's to answer
        if isinstance(parsed, dict):
            if "game" not in parsed:
                parsed["game"] = self.game
                data = json.dumps(parsed, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            game = parsed["game"]
            if type(game) is int and 0 <= game < len(self.pool.games):
                answered_by = game
        if answered_by != self.game:
            raise ValueError(f"game {answered_by} answers that line: send it through pool.games[{answered_by}]")
        return super().send_raw(data)

    def _fill(self) -> None:
        self.pool._fill()

    def _drain_lines(self) -> bool:
        fresh, self._fresh = self._fresh, False
        return fresh

    def _poll(self, wait: Optional[float]) -> bool:
        if self._drain_lines():
            return True
        self.pool._flush()
        if self._eof:
            return False
        readable, _, _ = select.select([self._out], [], [], None if wait is None else max(0.0, wait))
        if readable:
            self._fill()
        return self._drain_lines()

    def _read_one(self, deadline: Optional[float], waiting_for=None) -> None:
        self.pool._flush()
        super()._read_one(deadline, waiting_for)

    def close(self, timeout: float = 5.0) -> Optional[Reply]:
        """Does nothing: a game of a pool ends with the pool (:meth:`EnginePool.close`)."""
        return None

    def kill(self) -> None:
        """Stops the whole pool's engine (every game)."""
        self.pool.kill()


class EnginePool:
    """``efb pipe --games N``: N games in one engine process (protocol section 13), one
    :class:`PooledGame` each in :attr:`games`, all over one pair of pipes.

    Game ``i`` plays with seed ``--seed`` + ``i``; each has its own ``seq``, replies, screen model
    and hello agreement, exactly as an :class:`Engine` of its own. Lines for several games can be
    written together: between :meth:`cork` and :meth:`flush` what the games send is gathered and
    written at once (a vector of environments steps every game with one write and one read).

    Args:
        count: How many games (1 to 1024).
        args: More ``efb pipe`` options (``--seed`` is the seed of game 0). Progress is kept in memory
            (``--memory-save`` is added unless ``--save`` is given, which a pool of one game may).
        binary, stderr, env, cwd: As for :class:`Engine`.
        hello, protocol, check, timeout: Given to each game, as for :class:`Engine`.
        on_event: Called with ``(game, event)`` for every event as it is read.
    """

    def __init__(self, count: int, args: Sequence[str] = (), binary: Optional[str] = None, *,
                 hello: Union[bool, Dict[str, Any]] = True, protocol: Any = None, check: bool = True,
                 stderr: str = "inherit", timeout: Optional[float] = None,
                 on_event: Optional[Callable[[int, Event], None]] = None,
                 env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None):
        if not 1 <= count <= 1024:
            raise ValueError("a pool hosts 1 to 1024 games")
        self.binary = find_binary(binary)
        args = list(args)
        if "--save" not in args and "--memory-save" not in args:
            args.append("--memory-save")  # (implied by more than one game; a pool of one says it)
        self.argv = [self.binary, "pipe", "--games", str(count), *args]
        self.process, self._stderr_file = _spawn(self.argv, stderr, env, cwd)
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buffer = bytearray()
        self._outgoing = bytearray()
        self._corked = False
        self._eof = False
        self._closed = False
        self._stderr_text = ""
        self.timeout = timeout
        self.on_event = on_event
        #: The games, in order.
        self.games: List[PooledGame] = []
        for game in range(count):
            forward = None if on_event is None else (lambda event, game=game: on_event(game, event))
            self.games.append(PooledGame(self, game, hello=hello, protocol=protocol, check=check,
                                         timeout=timeout, on_event=forward))
        try:
            for game in self.games:
                game._handshake(hello, check)
        except BaseException:
            self.kill()
            raise

    @property
    def stderr_text(self) -> str:
        return _captured(self._stderr_file, self._stderr_text)

    def cork(self) -> None:
        """Gathers what the games send until :meth:`flush` (or until one of them waits for a reply)."""
        self._corked = True

    def flush(self) -> None:
        """Writes what was gathered since :meth:`cork`, and sends at once from then on."""
        self._corked = False
        self._flush()

    def _send(self, data: bytes) -> None:
        self._outgoing += data
        if not self._corked:
            self._flush()

    def _flush(self) -> None:
        """Writes everything gathered, reading what the engine writes meanwhile so that neither side
        waits on a full pipe."""
        self._corked = False
        outgoing = self._outgoing
        deadline = None if self.timeout is None or not outgoing else time.monotonic() + self.timeout
        while outgoing:
            try:
                written = os.write(self._in, outgoing)
                del outgoing[:written]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                self._end()
                raise EngineExited("the engine closed its input", self.process.poll(), self.stderr_text) from None
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            readable, writable, _ = select.select([self._out], [self._in], [], wait)
            if not readable and not writable:
                raise EngineTimeout(f"could not write within {self.timeout} s")
            if readable:
                self._fill()

    def _fill(self) -> None:
        """Reads what the engine wrote and hands every complete line to its game."""
        if self._eof:
            return
        chunk = os.read(self._out, 1 << 16)
        if not chunk:
            self._end()
            if self._buffer:
                raise ProtocolViolation("the output ended in the middle of a line", bytes(self._buffer))
            return
        buffer = self._buffer
        buffer += chunk
        end = buffer.rfind(b"\n")
        if end < 0:
            return
        lines = bytes(buffer[:end])
        del buffer[: end + 1]
        try:
            events = _loads(b"[" + lines.replace(b"\n", b",") + b"]")
        except ValueError:
            events = None
        if events is None or len(events) != lines.count(b"\n") + 1:
            # Some line is not one JSON value: find it, and say which.
            events = []
            for raw in lines.split(b"\n"):
                try:
                    events.append(_loads(raw))
                except ValueError:
                    raise ProtocolViolation("the engine wrote a line that is not JSON", raw) from None
        games = self.games
        count = len(games)
        index = 0
        try:
            if count == 1:
                # An engine of one game writes no game (protocol section 13).
                accept = games[0]._accept
                for index, event in enumerate(events):
                    accept(event, None)
                games[0]._fresh = True
                return
            for index, event in enumerate(events):
                number = event.get("game") if type(event) is dict else None
                if type(number) is not int or not 0 <= number < count:
                    raise ProtocolViolation("an event of a pool without a game it has")
                game = games[number]
                game._accept(event, None)
                game._fresh = True
        except ProtocolViolation as error:
            if error.line is not None:
                raise
            # (The line is found only now: splitting every chunk into lines costs more than the rest.)
            raise ProtocolViolation(str(error), lines.split(b"\n")[index]) from None

    def _end(self) -> None:
        self._eof = True
        for game in self.games:
            game._eof = True

    def close(self, timeout: float = 5.0) -> None:
        """Ends every game (the end of the input: each says ``ended`` and ``bye``), reads what is left,
        and waits for the engine to exit. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            try:
                self._flush()
            except EfbClientError:
                pass
            self.process.stdin.close()
            deadline = time.monotonic() + timeout
            while not self._eof and time.monotonic() < deadline:
                readable, _, _ = select.select([self._out], [], [], max(0.0, deadline - time.monotonic()))
                if readable:
                    try:
                        self._fill()
                    except ProtocolViolation:
                        break
            self.process.stdout.close()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        finally:
            self._release()

    def kill(self) -> None:
        """Stops the engine at once (SIGKILL), every game with it."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._closed = True
        self._end()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._release()

    def _release(self) -> None:
        for game in self.games:
            game._closed = True
        if self._stderr_file is not None:
            self._stderr_text = self.stderr_text
            self._stderr_file.close()
            self._stderr_file = None

    def __enter__(self) -> "EnginePool":
        return self

    def __exit__(self, exc_type, exc, traceback) -> None:
        if exc_type is None:
            self.close()
        else:
            self.kill()


def _spawn(argv: Sequence[str], stderr: str, env: Optional[Dict[str, str]], cwd: Optional[str]) -> tuple:
    """Starts an engine with pipes on its input and output; returns it and the file that captures its
    standard error (``stderr="capture"``), else ``None``."""
    captured = None
    if stderr == "capture":
        captured = tempfile.TemporaryFile()
        target: Any = captured
    elif stderr == "discard":
        target = subprocess.DEVNULL
    elif stderr == "inherit":
        target = None
    else:
        raise ValueError('stderr must be "inherit", "capture" or "discard"')
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=target, bufsize=0, env=env, cwd=cwd
    )
    return process, captured


def _captured(file: Any, closed_text: str) -> str:
    """What a capturing file holds, as text; ``closed_text`` once it is closed (or there is none)."""
    if file is None:
        return closed_text
    position = file.tell()
    file.seek(0)
    data = file.read()
    file.seek(position)
    return data.decode("utf-8", "replace")


#: Another name for :class:`Engine`.
EfbClient = Engine


#: Reads the engine's JSON (orjson's reader when it is installed: its errors are ValueErrors too).
_loads: Callable[[bytes], Any] = _orjson.loads if _orjson is not None else json.loads


def command_line(command: Command) -> bytes:
    """``command`` as one protocol line: compact JSON in UTF-8 (nothing escaped that need not be),
    ending with a newline."""
    if _orjson is not None:
        try:
            return _orjson.dumps(command, option=_orjson.OPT_APPEND_NEWLINE)
        except TypeError:  # (what it does not write, such as integers beyond 64 bits: json does)
            pass
    return json.dumps(command, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _key(request_id: RequestId):
    """Ids 1 and "1" are different ids: key them by type as well as value."""
    return (type(request_id).__name__, request_id)
