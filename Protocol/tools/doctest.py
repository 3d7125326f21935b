#!/usr/bin/env python3
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
  catalogue can say (placeholders such as PATH standing for any text); the codes are the schema's;
  and each message the pipe can be made to say is said, byte for byte, by the probe below.

Prints one line per problem and exits 1 if there is any, 0 otherwise.
"""
import json
import pathlib
import re
import subprocess
import sys

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT.parent
ENVELOPE = {"type", "seq", "replyTo", "id", "ifGen"}
VIRTUAL = ["pipe", "--seed", "1", "--clock", "virtual", "--memory-save"]

# Lines that make the pipe say each example message of §6 (the message is looked for in the output).
PROBES = {
    "the line is not valid UTF-8": [b'{"type":"ping","x":"\xff"}'],
    "the line is 1048577 bytes long; the limit is 1048576": [b"x" * 1048577],
    'not valid JSON: duplicate key "id" at byte 24': [b'{"type":"ping","id":1,"id":2}'],
    "not valid JSON: nesting deeper than 64 levels at byte 93": [
        b'{"type":"ping","x":' + b"[" * 64 + b"]" * 64 + b"}"
    ],
    "a command is a JSON object, not an array": [b"[]"],
    'unknown command "fly"': [b'{"type":"fly"}'],
    "missing required field element": [b'{"type":"focus"}'],
    'no element "nope" on screen level-stones-memory': None,
    "chapter must be between 1 and 7": [b'{"type":"goto","chapter":8,"level":1}'],
    "text is 1001 characters long; the limit is 1000": [b'{"type":"input","text":"' + b"a" * 1001 + b'"}'],
    "the focused element has no custom actions": [b'{"type":"action","index":1}'],
    "the state has moved on to generation 47 (the command expected 0)": None,
    "level 2.1 is not unlocked yet": [b'{"type":"goto","chapter":2,"level":1}'],
    "this engine speaks protocol 1.0, 1.1, 1.2, not 2.0": [b'{"type":"hello","protocol":2}'],
    "the snapshot cannot be restored: its checksum does not match: it was altered": None,
    "commands[812]: the batch would send more than 10000 events; nothing of it happened": None,
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
    source = (PACKAGE / "Sources/EscapeCore/Words/EngineWords+English.swift").read_text()
    templates = []
    for match in re.finditer(r'case \.\w+:\s*((?:"(?:[^"\\]|\\.)*"\s*(?:\+\s*)?)+)', source):
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))
        templates.append("".join(parts).replace('\\"', '"'))
    return templates


def check_errors(efb, text, event_schema):
    codes = set()
    tables = table_after(text, "<!-- errors -->")
    if not tables:
        problem("README.md", "no table marked <!-- errors -->")
        return
    line_number, rows = tables[0]
    patterns = [
        re.compile("".join(".+?" if re.fullmatch(r"\{\w+\}", part) else re.escape(part)
                           for part in re.split(r"(\{\w+\})", template)) + r"\Z")
        for template in catalogue()
    ]
    for row in rows:
        codes.add(row[0].strip("`"))
        for message in re.findall(r"`([^`]+)`", row[3]):
            general = message.replace("PATH", "/x").replace("…", "x")
            if not any(pattern.match(general) for pattern in patterns):
                problem(f"README.md:{line_number}", f"no message of the engine's catalogue reads {message!r}")
            probe = PROBES.get(message, "missing")
            if probe == "missing":
                continue
            if probe is None:
                continue  # said by the example transcripts or the conformance tests (see PROBES)
            output = run(efb, VIRTUAL, probe)
            said = [json.loads(line).get("message") for line in output if '"type":"error"' in line]
            if message not in said:
                problem(f"README.md:{line_number}", f"the engine does not say {message!r} for {probe[0][:60]!r}; it said {said}")
    schema_codes = set(event_schema["$defs"]["error"]["properties"]["code"].get("enum", []))
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
    check_errors(efb, text, event_schema)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"{readme.name}: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
