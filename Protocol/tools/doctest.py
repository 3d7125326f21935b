#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check Protocol/README.md against the engine and the schemas, so the spec cannot drift.

Usage: doctest.py EFB [README]

EFB is the engine binary. What is checked:

- replay: every exchange marked ``<!-- replay: ARGUMENTS -->`` (the ``text`` block after it, ``>``
  lines sent, ``<`` lines expected) is replayed with ``EFB ARGUMENTS``: the engine's output must be
  the ``<`` lines, byte for byte, in full. ``…`` in an expected line stands for any text.
- events: every ``json`` block that holds an event (it has ``seq``) validates against
  event.schema.json and is a line of one of the example transcripts (which the test suite replays
  byte for byte), ``…`` again standing for any text.
- commands: every ``json`` block that holds a command (it has ``type`` and no ``seq``) validates
  against command.schema.json.
- fields: every table marked ``<!-- fields: event|command NAME -->`` names exactly the fields the
  schema gives that event or command (the envelope's ``type``, ``seq``, ``replyTo``, ``id`` and
  ``ifGen`` aside).
- capabilities: the table marked ``<!-- capabilities -->`` is the schema's list of capabilities,
  row for row, with the schema's words.
- gen: the events listed after ``<!-- gen-always -->`` (up to ``<!-- /gen-always -->``) are exactly
  the events whose schema requires ``gen``; in the 1.0 golden transcript every event of those
  types carries ``gen`` and no other does.
- errors: every example message of the table marked ``<!-- errors -->`` is one the engine's English
  catalogue can say (placeholders such as PATH standing for any text), and the codes are the
  schema's.
- messages: every engine message the document quotes anywhere (in backticks or double quotes: a quote
  one of the catalogue's messages can say), and every message of the error table, is said by the
  engine when its probe in ``PROBES`` runs: lines sent to the pipe, or a scene played out (a save
  whose folder vanishes, a locked save, a crafted snapshot, a shared game with a slow observer and a
  17th client). A quoted message without a probe is a problem too.

Prints one line per problem and exits 1 if there is any, 0 otherwise.
"""
import base64
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT.parent
ENVELOPE = {"type", "seq", "replyTo", "id", "ifGen"}
VIRTUAL = ["pipe", "--seed", "1", "--clock", "virtual", "--memory-save"]

def said_by_pipe(lines, arguments=VIRTUAL):
    """A probe: the messages of the errors the pipe writes for `lines`."""
    return lambda efb: messages(run(efb, arguments, lines))


def messages(output):
    return [json.loads(line).get("message") for line in output if '"type":"error"' in line]


FOLDERS = []


def scratch_folder():
    """A fresh folder, removed when the checks end."""
    FOLDERS.append(pathlib.Path(tempfile.mkdtemp(prefix="efb-doctest-")))
    return FOLDERS[-1]


def save_file(completed, current, format=1):
    """A save of the shipped adventure in a fresh folder (the engine's format: see EscapeSaves)."""
    path = scratch_folder() / "progress.json"
    value = {"adventure": "escape-from-blindness", "completed": completed, "current": current, "format": format}
    path.write_text(json.dumps(value) + "\n")
    return path


def levels():
    adventure = json.loads((PACKAGE / "Sources/EscapeContent/Adventures/en.json").read_text())
    return [level["id"] for chapter in adventure["chapters"] for level in chapter["levels"]]


def resumed_on(level, lines):
    """A probe on the pipe resumed from a save on `level`, every level before it solved."""
    before = levels()[: levels().index(level)]
    return lambda efb: messages(run(efb, ["pipe", "--seed", "1", "--clock", "virtual", "--save", str(save_file(before, level))], lines))


def newer_save(efb):
    return messages(run(efb, ["pipe", "--clock", "virtual", "--save", str(save_file([], None, format=3))], []))


def locked_save(efb):
    """A second pipe on a save whose lock the first holds."""
    save = save_file([], None)
    arguments = [efb, "pipe", "--clock", "virtual", "--save", str(save)]
    first = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=PACKAGE)
    try:
        first.stdout.readline()  # its hello: it holds the lock
        return messages(run(efb, arguments[1:], []))
    finally:
        first.stdin.close()
        first.wait(timeout=60)


def failed_save(efb):
    """The save's folder becomes a plain file under a running game, which then solves a level."""
    folder = scratch_folder() / "saves"
    folder.mkdir()
    game = subprocess.Popen(
        [efb, "pipe", "--seed", "1", "--clock", "virtual", "--save", str(folder / "progress.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=PACKAGE,
    )
    game.stdin.write(b'{"type":"ping","id":"ready"}\n')
    game.stdin.flush()
    output = []
    while '"replyTo":"ready"' not in (output[-1] if output else ""):
        output.append(game.stdout.readline().decode())
    shutil.rmtree(folder)
    folder.write_text("x")
    lines = [
        '{"type":"batch","commands":[{"type":"escape"},{"type":"activate","element":"begin"}]}',
        '{"type":"activate","element":"senses"}',
    ]
    rest, _ = game.communicate(("\n".join(lines) + "\n").encode(), timeout=60)
    return messages(rest.decode().split("\n"))


def crafted_snapshot(change):
    """A probe restoring a real snapshot whose JSON payload `change` altered, signed again (the
    checksum is no signature: anyone can compute it, §4.18)."""

    def probe(efb):
        output = run(efb, VIRTUAL, ['{"type":"snapshot","id":"s"}'])
        blob = next(json.loads(line)["blob"] for line in output if '"type":"snapshot"' in line)
        prefix, body, checksum = blob.rsplit(".", 2)[0] + ".", *blob.rsplit(".", 2)[1:]
        payload = json.loads(base64.b64decode(body))
        altered = change(payload)
        if altered is None:  # the payload as it was, the checksum altered
            blob = prefix + body + "." + ("0" if checksum[-1] != "0" else "1").join([checksum[:-1], ""])
        else:
            data = json.dumps(altered, separators=(",", ":"), sort_keys=True).encode()
            blob = prefix + base64.b64encode(data).decode() + "." + fnv1a(data)
        return messages(run(efb, VIRTUAL, [json.dumps({"type": "restore", "id": "r", "blob": blob})]))

    return probe


def fnv1a(data):
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) % (1 << 64)
    return f"{value:016x}"


def with_value(path, value):
    def change(payload):
        target = payload
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return payload

    return change


def shared_game(efb):
    """`efb serve` with a controller, observers and a 17th client: the messages every client got."""
    socket_path = str(scratch_folder() / "game.sock")
    server = subprocess.Popen([efb, "serve", "--socket", socket_path, "--memory-save"], stderr=subprocess.PIPE, cwd=PACKAGE)
    said = []
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(socket_path):
            if time.monotonic() > deadline or server.poll() is not None:
                problem("README.md", "efb serve did not make its socket")
                return said
            time.sleep(0.05)
        controller = Client(socket_path)
        slow = Client(socket_path)
        observer = Client(socket_path)
        for client in (controller, slow, observer):
            client.read_until(lambda event: event["type"] == "idle")
        # Clients that spoke: none makes room for the 17th (§12), which is then refused.
        for client in (controller, slow):
            client.send('{"type":"ping","id":"here"}')
            client.read_until(lambda event: event["type"] == "done")
        observer.send('{"type":"next","id":1}')
        observer.send('{"type":"hello","id":2,"protocol":[1,1],"role":"controller"}')
        said += [event.get("message") for event in observer.read_until(lambda event: event.get("replyTo") == 2 and event["type"] == "done") if event["type"] == "error"]
        crowd = [Client(socket_path) for _ in range(13)]
        for client in crowd:
            client.read_until(lambda event: event["type"] == "idle")
            client.send('{"type":"ping","id":"here"}')
            client.read_until(lambda event: event["type"] == "done")
        extra = Client(socket_path)
        said += [event.get("message") for event in extra.read_until(lambda event: False) if event["type"] == "error"]
        for client in crowd:
            client.close()
        # The slow observer reads nothing while the controller's moves are copied to it: megabytes.
        moves = "".join('{"type":"%s","id":%d}\n' % ("next" if number % 2 == 0 else "previous", number) for number in range(6000))
        reader = threading.Thread(target=controller.read_until, args=(lambda event: event.get("replyTo") == 5999 and event["type"] == "done",))
        reader.start()
        controller.socket.sendall(moves.encode())
        reader.join(timeout=120)
        slow.send('{"type":"ping","id":"p"}')
        said += [event.get("message") for event in slow.read_until(lambda event: event.get("replyTo") == "p" and event["type"] == "done") if event["type"] == "error"]
        controller.send('{"type":"quit","id":"q"}')
        controller.read_until(lambda event: event["type"] == "bye")
        server.wait(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return said


class Client:
    """A client of `efb serve`, reading whole lines."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(120)
        self.socket.connect(path)
        self.buffer = b""

    def send(self, line):
        self.socket.sendall(line.encode() + b"\n")

    def read_until(self, done):
        """Events up to the first for which `done` holds, or up to the end of the connection."""
        events = []
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                events.append(json.loads(line))
                if done(events[-1]):
                    return events
            data = self.socket.recv(1 << 16)
            if not data:
                return events
            self.buffer += data

    def close(self):
        self.socket.close()


# Every engine message this document quotes (in backticks or double quotes), with the probe that makes
# the engine say it: the lines to send the pipe, or a function of the engine binary returning the
# messages of the errors it wrote. In a quoted message PATH and … stand for any text. A quoted message
# with no probe here is a problem: the tests would not notice the engine saying something else.
SHARED = {}


def shared(efb):
    if efb not in SHARED:
        SHARED[efb] = shared_game(efb)
    return SHARED[efb]


PROBES = {
    "the line is not valid UTF-8": [b'{"type":"ping","x":"\xff"}'],
    "the line is 1048577 bytes long; the limit is 1048576": [b"x" * 1048577],
    'not valid JSON: duplicate key "id" at byte 22': [b'{"type":"ping","id":1,"id":2}'],
    "not valid JSON: nesting deeper than 64 levels at byte 82": [b'{"type":"ping","x":' + b"[" * 64 + b"]" * 64 + b"}"],
    "a command is a JSON object, not an array": [b"[]"],
    'unknown command "fly"': [b'{"type":"fly"}'],
    'commands[1]: unknown command "fly"': [b'{"type":"batch","commands":[{"type":"next"},{"type":"fly"}]}'],
    "missing required field element": [b'{"type":"focus"}'],
    'no element "nope" on screen level-stones-memory': resumed_on("stones-memory", ['{"type":"focus","element":"nope"}']),
    "chapter must be between 1 and 7": [b'{"type":"goto","chapter":8,"level":1}'],
    "game must be between 0 and 0": [b'{"type":"next","game":1}'],
    "game must be between 0 and 1": lambda efb: messages(run(efb, VIRTUAL + ["--games", "2"], [b'{"type":"next","game":2}'])),
    "chapter must be at least 1": [b'{"type":"goto","chapter":0,"level":1}'],
    "level must be between 1 and 4 in chapter 1": [b'{"type":"goto","chapter":1,"level":5}'],
    "ms must be between 0 and 86400000": [b'{"type":"wait","ms":86400001}'],
    "ms must be an integer, not 1.5": [b'{"type":"wait","ms":1.5}'],
    "ms must be an integer, not a fraction too small to be told from 0": [b'{"type":"wait","ms":1e-400}'],
    "ifGen must be at most 9007199254740991": [b'{"type":"ping","ifGen":9007199254740992}'],
    "element must be a string, not null": [b'{"type":"focus","element":null}'],
    "text is 1001 characters (code points) long; the limit is 1000": [b'{"type":"input","text":"' + b"a" * 1001 + b'"}'],
    "the focused element has no custom actions": [b'{"type":"action","index":1}'],
    "the focused element has no rotor": [b'{"type":"rotor","direction":"next"}'],
    "the focused element is not adjustable": [b'{"type":"adjust","direction":"increment"}'],
    "direction must be increment or decrement": [b'{"type":"adjust","direction":"first"}'],
    "action needs a name or an index": [b'{"type":"action"}'],
    "magic tap does nothing here": [b'{"type":"menu"}', b'{"type":"magicTap"}'],
    "the assistive technology screen is showing; report assistive active first": [
        b'{"type":"assistive","active":false}',
        b'{"type":"escape"}',
    ],
    "the focused element is not a text field": [b'{"type":"input","text":"a"}'],
    "the menu is already open": [b'{"type":"menu"}', b'{"type":"menu"}'],
    "nothing has been announced yet": [b'{"type":"repeat"}'],
    "the state has moved on to generation 45 (the command expected 0)": [b'{"type":"next"}', b'{"type":"previous"}'] * 22
    + [b'{"type":"next"}', b'{"type":"ping","ifGen":0}'],
    "the state has moved on to generation 47 (the command expected 0)": [b'{"type":"next"}', b'{"type":"previous"}'] * 23
    + [b'{"type":"next"}', b'{"type":"ping","ifGen":0}'],
    "level 2.1 is not unlocked yet": [b'{"type":"goto","chapter":2,"level":1}'],
    "this engine speaks protocol 1.0, 1.1, 1.2, 1.3, not 2.0": [b'{"type":"hello","protocol":2}'],
    "the snapshot cannot be restored: its checksum does not match: it was altered": crafted_snapshot(lambda payload: None),
    "it has format 2; this engine reads format 1": crafted_snapshot(with_value(["format"], 2)),
    "the snapshot cannot be restored: state.state.stack[0].focus: the value is out of range": crafted_snapshot(
        with_value(["state", "state", "stack", 0, "focus"], 99)
    ),
    "commands[694]: the batch would send more than 10000 events; nothing of it happened": resumed_on(
        "torch-oil", ['{"type":"batch","commands":[' + ",".join(['{"type":"wait","ms":86400}'] * 1000) + "]}"]
    ),
    "progress could not be saved (file PATH): …; the game goes on": failed_save,
    "the save (file PATH) has format 3, from a newer version of the game; it is left untouched and this game will not be saved": newer_save,
    "another game is playing with the save (file PATH); this game starts from that save but runs read-only: its progress will not be saved": locked_save,
    'you are following this game as an observer, so next is not yours to send; ask for control with hello and role "controller" once it is free': shared,
    'another client controls the game; it can hand over with hello and role "observer", or by leaving': shared,
    "this game already has 16 clients; try again when one leaves": shared,
    "you read too slowly: more than 1048576 bytes waited for you, so the game's events are dropped until you catch up (replies to your own commands are kept); the whole state follows": shared,
}

problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def wildcard(expected):
    """A pattern for a line where … stands for any text."""
    return re.compile("".join(".*?" if part == "…" else re.escape(part) for part in re.split("(…)", expected)) + r"\Z", re.S)


def run(efb, arguments, lines):
    data = b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines)
    result = subprocess.run([efb] + arguments, input=data, capture_output=True, timeout=120, cwd=PACKAGE)
    return result.stdout.decode("utf-8").split("\n")[:-1]


def blocks(text):
    """(line number, info string, body, the HTML comment just before it) for each fenced block."""
    found = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        match = re.match(r"^```(\w*)\s*$", lines[index])
        if match:
            start = index
            index += 1
            body = []
            while not lines[index].startswith("```"):
                body.append(lines[index])
                index += 1
            before = start - 1
            while before >= 0 and not lines[before].strip():
                before -= 1
            marker = lines[before].strip() if before >= 0 and lines[before].strip().startswith("<!--") else ""
            found.append((start + 1, match.group(1), body, marker))
        index += 1
    return found


def table_after(text, marker):
    """The rows (lists of cells) of the first table after each occurrence of `marker`."""
    tables = []
    for match in re.finditer(re.escape(marker), text):
        line_number = text.count("\n", 0, match.start()) + 1
        rows = []
        for line in text[match.end():].split("\n")[1:]:
            if line.startswith("|"):
                rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
            elif rows:
                break
        tables.append((line_number, rows[2:]))
    return tables


def names_in(cell):
    return set(re.findall(r"`([A-Za-z][A-Za-z0-9]*)`", cell))


def check_replays(efb, text):
    for line_number, _, body, marker in blocks(text):
        match = re.match(r"<!-- replay: (.*?) -->", marker)
        if not match:
            continue
        arguments = match.group(1).split()
        sent = [line[2:] for line in body if line.startswith("> ")]
        expected = [line[2:] for line in body if line.startswith("< ")]
        output = run(efb, arguments, sent)
        if len(output) != len(expected):
            problem(f"README.md:{line_number}", f"the engine wrote {len(output)} lines, the example shows {len(expected)}")
        for number, (want, got) in enumerate(zip(expected, output), 1):
            if not wildcard(want).match(got):
                problem(f"README.md:{line_number}", f"line {number} of the replay differs:\n  README: {want}\n  engine: {got}")


def check_json_blocks(text, events, commands):
    transcripts = []
    for path in sorted((ROOT / "examples").glob("*.transcript.ndjson")):
        transcripts += path.read_text(encoding="utf-8").split("\n")
    for line_number, info, body, _ in blocks(text):
        if info not in ("json", "text") or len(body) != 1 or not body[0].startswith("{"):
            continue
        line = body[0]
        if "…" in line:
            if '"seq"' in line and not any(wildcard(line).match(real) for real in transcripts):
                problem(f"README.md:{line_number}", "this shortened event is no line of the example transcripts")
            continue
        try:
            value = json.loads(line)
        except ValueError as error:
            problem(f"README.md:{line_number}", f"not JSON: {error}")
            continue
        if "seq" in value:
            for error in events.iter_errors(value):
                problem(f"README.md:{line_number}", f"event invalid: {error.message}")
            if line not in transcripts and not marker_ok(text, line_number):
                problem(f"README.md:{line_number}", "this event is no line of the example transcripts")
        else:
            for error in commands.iter_errors(value):
                problem(f"README.md:{line_number}", f"command invalid: {error.message}")


def marker_ok(text, line_number):
    """An event example outside the transcripts is marked as checked by a test of its own."""
    before = text.split("\n")[max(0, line_number - 3):line_number - 1]
    return any("<!-- checked by" in line for line in before)


def definition_fields(schema, name):
    definition = schema["$defs"][name]
    return set(definition.get("properties", {})) - ENVELOPE


def command_definitions(schema):
    by_type = {}
    for name, definition in schema["$defs"].items():
        const = definition.get("properties", {}).get("type", {}).get("const")
        if const:
            by_type[const] = name
    return by_type


def check_fields(text, event_schema, command_schema):
    commands = command_definitions(command_schema)
    for match in re.finditer(r"<!-- fields: (event|command) (\w+) -->", text):
        kind, name = match.groups()
        marker = match.group(0)
        for line_number, rows in table_after(text[match.start():], marker)[:1]:
            line_number += text.count("\n", 0, match.start())
            documented = set()
            for row in rows:
                documented |= names_in(row[0])
            if kind == "event":
                schema_fields = definition_fields(event_schema, name)
            else:
                schema_fields = set(command_schema["$defs"][commands.get(name, name)].get("properties", {})) - ENVELOPE
            documented -= ENVELOPE
            if "gen" not in schema_fields:
                documented.discard("gen")  # every event's envelope has it in 1.1
            if documented != schema_fields:
                problem(
                    f"README.md:{line_number}",
                    f"the {kind} {name}'s table names {sorted(documented)}; the schema has {sorted(schema_fields)}",
                )
    for name in event_schema["$defs"]:
        const = event_schema["$defs"][name].get("properties", {}).get("type", {}).get("const")
        if const and definition_fields(event_schema, name) - {"gen"} and f"<!-- fields: event {name} -->" not in text:
            problem("README.md", f"the event {name} has fields but no table marked <!-- fields: event {name} -->")


def check_capabilities(text, event_schema):
    items = event_schema["$defs"]["hello"]["properties"]["capabilities"]["items"]["anyOf"]
    want = [[f"`{item['const']}`", item["description"]] for item in items]
    tables = table_after(text, "<!-- capabilities -->")
    if not tables:
        problem("README.md", "no table marked <!-- capabilities -->")
    for line_number, rows in tables:
        if rows != want:
            problem(f"README.md:{line_number}", "the capability table is not the schema's; it should read:\n"
                    + "\n".join(f"| {a} | {b} |" for a, b in want))


def check_generation(text, event_schema):
    match = re.search(r"<!-- gen-always -->(.*?)<!-- /gen-always -->", text, re.S)
    if not match:
        problem("README.md", "no list marked <!-- gen-always -->")
        return
    documented = names_in(match.group(1))
    required = {
        definition["properties"]["type"]["const"]
        for definition in event_schema["$defs"].values()
        if "gen" in definition.get("required", []) and "const" in definition.get("properties", {}).get("type", {})
    }
    if documented != required:
        problem("README.md", f"the events said to carry gen in 1.0 are {sorted(documented)}; the schema requires it of {sorted(required)}")
    for number, line in enumerate((ROOT / "examples/full-game.transcript.ndjson").read_text().split("\n")[:-1], 1):
        event = json.loads(line)
        if ("gen" in event) != (event["type"] in required):
            problem(f"examples/full-game.transcript.ndjson:{number}", f"a 1.0 {event['type']} event {'has' if 'gen' in event else 'lacks'} gen")


def catalogue():
    """The English catalogues' messages (the core's and the runtime's; labels aside), as (name, template)
    pairs."""
    source = "\n".join(
        (PACKAGE / path).read_text()
        for path in (
            "Sources/EscapeCore/Words/EngineWords+English.swift",
            "Sources/EscapeRuntime/Words/SessionWords+English.swift",
        )
    )
    templates = []
    for match in re.finditer(r'case \.(\w+):\s*((?:"(?:[^"\\]|\\.)*"\s*(?:\+\s*)?)+)', source):
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(2))
        templates.append((match.group(1), "".join(parts).replace('\\"', '"')))
    return templates


def template_pattern(template):
    return re.compile(
        "".join(".+?" if re.fullmatch(r"\{\w+\}", part) else re.escape(part) for part in re.split(r"(\{\w+\})", template))
        + r"\Z"
    )


def quoted_messages(text, codes):
    """Every engine message the document quotes, with the line it is on: a string in backticks or
    double quotes that one of the catalogue's messages (with at least a few words of its own) can
    say, or that follows an error code of `codes`; a quote with a letter such as N standing for a
    value aside."""
    patterns = [
        template_pattern(template)
        for name, template in catalogue()
        if not name.startswith("label") and len(re.sub(r"\{\w+\}", "", template)) >= 12
    ]
    found = {}
    # A quote may be wrapped onto the next line (not across a blank one): the line break is a space.
    for match in re.finditer(r'`((?:[^`\n]|\n(?![ \t]*\n))+)`|"((?:[^"\\\n]|\\.|\n(?![ \t]*\n))*)"', text):
        quote = match.group(1)
        if quote is None:
            try:
                quote = json.loads('"' + re.sub(r"\s*\n\s*", " ", match.group(2)) + '"')
            except ValueError:
                quote = match.group(2)
        quote = re.sub(r"\s*\n\s*", " ", quote)
        if re.search(r"\b(?:[A-Z]|ID)\b", quote):
            continue  # a letter standing for a value, such as N or ID
        general = quote.replace("PATH", "/x").replace("…", "x")
        # A quote just after an error code (`not_now` "…", `invalid_params` (field `x`) "…") is the
        # engine's message whether or not the catalogue still says it.
        quoted = match.group(1) is None
        after_code = quoted and re.search(r"`[a-z_]+`(?: \(field `[^`]+`\))? \Z", text[max(0, match.start() - 80) : match.start()])
        code = after_code and after_code.group(0).split("`")[1] in codes
        if code or any(pattern.match(general) for pattern in patterns):
            found.setdefault(quote, text.count("\n", 0, match.start()) + 1)
    return found


def check_errors(efb, text, event_schema):
    codes = set()
    tables = table_after(text, "<!-- errors -->")
    if not tables:
        problem("README.md", "no table marked <!-- errors -->")
        return
    line_number, rows = tables[0]
    line_number += 2
    patterns = [template_pattern(template) for _, template in catalogue()]
    schema_codes = set(event_schema["$defs"]["error"]["properties"]["code"].get("enum", []))
    quoted = quoted_messages(text, schema_codes)
    for number, row in enumerate(rows, 1):
        codes.add(row[0].strip("`"))
        for message in re.findall(r"`([^`]+)`", row[3]):
            general = message.replace("PATH", "/x").replace("…", "x")
            if not any(pattern.match(general) for pattern in patterns):
                problem(f"README.md:{line_number + number}", f"no message of the engine's catalogue reads {message!r}")
            quoted.setdefault(message, line_number + number)
    for message, line in sorted(quoted.items(), key=lambda item: item[1]):
        probe = PROBES.get(message)
        if probe is None:
            problem(f"README.md:{line}", f"no probe in doctest.py makes the engine say {message!r}: add one to PROBES")
            continue
        said = probe(efb) if callable(probe) else messages(run(efb, VIRTUAL, probe))
        # The quote is the whole message, or its end after a colon (a reason, or a batched command's).
        wanted = re.compile(r"(?:\A|: )" + wildcard(message.replace("PATH", "…")).pattern, re.S)
        if not any(isinstance(text, str) and wanted.search(text) for text in said):
            problem(f"README.md:{line}", f"the engine does not say {message!r}; its probe got {said}")
    if schema_codes and codes != schema_codes:
        problem(f"README.md:{line_number}", f"the error table's codes {sorted(codes ^ schema_codes)} differ from the schema's")


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    efb = str(pathlib.Path(sys.argv[1]).resolve())
    readme = pathlib.Path(sys.argv[2]) if len(sys.argv) == 3 else ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    event_schema = json.loads((ROOT / "schema/event.schema.json").read_text())
    command_schema = json.loads((ROOT / "schema/command.schema.json").read_text())
    events = jsonschema.Draft202012Validator(event_schema)
    commands = jsonschema.Draft202012Validator(command_schema)
    check_replays(efb, text)
    check_json_blocks(text, events, commands)
    check_fields(text, event_schema, command_schema)
    check_capabilities(text, event_schema)
    check_generation(text, event_schema)
    try:
        check_errors(efb, text, event_schema)
    finally:
        for folder in FOLDERS:
            shutil.rmtree(folder, ignore_errors=True)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"{readme.name}: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
