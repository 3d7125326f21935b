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

Only the standard library is used (Python 3.8+). Nothing is printed on standard output; the
engine's standard error goes to this process's standard error unless ``stderr="capture"``.

Exceptions:

- :class:`EngineError`: the engine answered with an ``error`` event (only when ``check`` is true);
  it carries ``code``, ``message``, ``field`` and the whole ``reply``.
- :class:`ProtocolViolation`: the engine wrote something that is not the protocol (a line that is
  not a JSON object, no ``type``, ``seq`` not growing, a ``done`` for an unknown id, ...).
- :class:`EngineExited`: the engine's output ended (it exited) while a reply was still expected.
- :class:`EngineTimeout`: no complete reply within ``timeout`` seconds (only when a timeout is set).
"""

from __future__ import annotations

import json
import os
import pathlib
import select
import subprocess
import tempfile
import time
from collections import deque
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

__all__ = [
    "Engine",
    "Reply",
    "EfbClientError",
    "EngineError",
    "ProtocolViolation",
    "EngineExited",
    "EngineTimeout",
    "find_binary",
    "PROTOCOL_VERSION",
]

#: The protocol version this client speaks.
PROTOCOL_VERSION = 1

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

    def __repr__(self) -> str:
        kinds = ", ".join(event.get("type", "?") for event in self)
        return f"Reply(id={self.id!r}, [{kinds}])"


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


class Engine:
    """A running ``efb pipe`` and its conversation.

    Args:
        args: Extra arguments after ``efb pipe``, e.g. ``["--seed", "7", "--clock", "virtual",
            "--memory-save"]``.
        binary: The ``efb`` executable (see :func:`find_binary`).
        hello: ``True`` (default) sends ``{"type": "hello", "protocol": 1, "client": ...}`` at once
            and reads the engine's opening (its unsolicited hello, first screen, focus and progress)
            into :attr:`opening`. A dict adds fields to that hello (``want``, ``keys``,
            ``capabilities``, ``timePressure``, ...). A callable is given the engine's opening
            ``hello`` event (its first line, listing its capabilities) and returns those fields:
            the way to ask only for what the engine has. ``False`` sends nothing: the opening events
            then arrive, unsolicited, with the first command's reply (see :attr:`unsolicited`).
        check: Default for :meth:`send`: raise :class:`EngineError` when a reply holds an ``error``.
        stderr: ``"inherit"`` (default: the engine writes to this process's standard error),
            ``"capture"`` (kept in :attr:`stderr_text`), or ``"discard"``.
        timeout: Seconds to wait for one reply before :class:`EngineTimeout`; ``None`` waits for ever.
        on_event: Called with every event as it is read (for logging or a live display).
        env, cwd: Passed to :class:`subprocess.Popen`.

    Events without a ``replyTo`` (the opening when ``hello=False``, hints unlocking on the real
    clock, errors about lines that had no readable id) are appended to :attr:`unsolicited`, never
    mixed into a reply. The last ``screen``, ``focus`` and ``progress`` events seen, and the last
    generation, are kept in :attr:`screen`, :attr:`focus`, :attr:`progress` and :attr:`gen`.
    """

    def __init__(
        self,
        args: Sequence[str] = (),
        binary: Optional[str] = None,
        *,
        hello: Union[bool, Dict[str, Any], Callable[[Event], Dict[str, Any]]] = True,
        check: bool = True,
        stderr: str = "inherit",
        timeout: Optional[float] = None,
        on_event: Optional[Callable[[Event], None]] = None,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
    ):
        self.binary = find_binary(binary)
        self.argv = [self.binary, "pipe", *args]
        self.check = check
        self.timeout = timeout
        self.on_event = on_event
        #: Events that answer no command (no ``replyTo``), in arrival order.
        self.unsolicited: List[Event] = []
        #: The events before the handshake's reply (empty when ``hello=False``).
        self.opening: List[Event] = []
        #: The engine's ``hello`` reply (``None`` until a hello was answered).
        self.hello: Optional[Event] = None
        self.screen: Optional[Event] = None
        self.focus: Optional[Event] = None
        self.progress: Optional[Event] = None
        self.gen: Optional[int] = None
        #: The last ``seq`` read.
        self.seq = 0
        #: Commands written and events read so far.
        self.commands_sent = 0
        self.events_read = 0
        self._next_id = 1
        self._pending: Dict[Any, List[Event]] = {}  # id key -> events read so far, for sent commands
        self._finished: Dict[Any, Reply] = {}  # replies complete but not yet collected
        self._order: deque = deque()  # id keys in the order their commands were written
        self._buffer = bytearray()
        self._eof = False
        self._closed = False
        self._bye = False
        self._bye_event: Optional[Event] = None
        self._stderr_file = None
        self._stderr_closed_text = ""

        if stderr == "capture":
            self._stderr_file = tempfile.TemporaryFile()
            stderr_target: Any = self._stderr_file
        elif stderr == "discard":
            stderr_target = subprocess.DEVNULL
        elif stderr == "inherit":
            stderr_target = None
        else:
            raise ValueError('stderr must be "inherit", "capture" or "discard"')
        self.process = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr_target,
            bufsize=0,
            env=env,
            cwd=cwd,
        )
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        try:
            self._handshake(hello, check)
        except BaseException:
            self.kill()
            raise

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
            command = {"type": "hello", "protocol": PROTOCOL_VERSION, **fields}
            command.setdefault("id", "hello")
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
        return list((self.hello or {}).get("capabilities", []))

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def stderr_text(self) -> str:
        """The engine's standard error so far (only with ``stderr="capture"``)."""
        if self._stderr_file is None:
            return self._stderr_closed_text
        position = self._stderr_file.tell()
        self._stderr_file.seek(0)
        data = self._stderr_file.read()
        self._stderr_file.seek(position)
        return data.decode("utf-8", "replace")

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
        line = json.dumps(line_command, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
        return request_id, key, line

    def send(self, command: Command, *, check: Optional[bool] = None) -> Reply:
        """Sends one command and returns its events up to its ``done``.

        An ``id`` is added unless the command has one. With ``check`` (default: the engine's
        ``check``) an ``error`` event raises :class:`EngineError`.
        """
        request_id, key, line = self._prepare(command)
        self._register(key)
        self._write(line)
        self.commands_sent += 1
        return self._collect(request_id, key, check)

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
        for _, key, _ in prepared:
            self._register(key)
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
            self._register(key)
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

    def events_until_done(self, request_id: RequestId) -> Reply:
        """Reads until the ``done`` answering ``request_id`` (a command written earlier, e.g. by
        :meth:`write`), and returns that command's events. Other commands' events are kept for them."""
        key = _key(request_id)
        if key not in self._pending and key not in self._finished:
            raise ValueError(f"no command with id {request_id!r} is awaiting its reply")
        return self._collect(request_id, key, False)

    def write(self, command: Command) -> RequestId:
        """Writes one command without waiting; returns its id, for :meth:`events_until_done`."""
        request_id, key, line = self._prepare(command)
        self._register(key)
        self._write(line)
        self.commands_sent += 1
        return request_id

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
        Safe to call twice."""
        if self._closed:
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

    def _register(self, key) -> None:
        self._pending[key] = []
        self._order.append(key)

    def _deadline(self) -> Optional[float]:
        return None if self.timeout is None else time.monotonic() + self.timeout

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

    def _collect(self, request_id, key, check: Optional[bool]) -> Reply:
        deadline = self._deadline()
        while key not in self._finished:
            self._read_one(deadline, waiting_for=key)
        reply = self._finished.pop(key)
        reply.id = request_id
        # A quit (or a batch ending with quit) is followed by bye after its done.
        ended = reply.last("ended")
        if ended is not None and ended.get("reason") == "quit":
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
            event = json.loads(raw)
        except ValueError:
            raise ProtocolViolation("the engine wrote a line that is not JSON", raw) from None
        if not isinstance(event, dict):
            raise ProtocolViolation("the engine wrote a JSON value that is not an object", raw)
        event_type = event.get("type")
        seq = event.get("seq")
        if not isinstance(event_type, str):
            raise ProtocolViolation("an event without a string type", raw)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq <= self.seq:
            raise ProtocolViolation(f"seq does not grow (previous {self.seq})", raw)
        self.seq = seq
        self.events_read += 1
        if self._bye:
            raise ProtocolViolation("an event after bye", raw)

        if event_type == "screen":
            self.screen = event
        elif event_type == "focus":
            self.focus = event
        elif event_type == "progress":
            self.progress = event
        elif event_type == "hello" and "replyTo" in event:
            self.hello = event
        if "gen" in event and isinstance(event["gen"], int):
            self.gen = event["gen"]
        if self.on_event is not None:
            self.on_event(event)

        if event_type == "bye":
            self._bye = True
            self._bye_event = event
            return
        if "replyTo" not in event:
            self.unsolicited.append(event)
            return
        key = _key(event["replyTo"])
        events = self._pending.get(key)
        if events is None:
            raise ProtocolViolation("an event answers an id that is not awaiting a reply", raw)
        events.append(event)
        if event_type == "done":
            # Replies come back in the order the commands were written.
            if not self._order or self._order[0] != key:
                raise ProtocolViolation("a done arrived out of order", raw)
            self._order.popleft()
            del self._pending[key]
            self._finished[key] = Reply(event["replyTo"], events)


def _key(request_id: RequestId):
    """Ids 1 and "1" are different ids: key them by type as well as value."""
    return (type(request_id).__name__, request_id)
