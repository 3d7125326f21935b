#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Property test: the engine accepts exactly the commands schema/command.schema.json accepts.

Usage: command_property.py EFB [--seed N] [--count N] [--keep FILE]

Draws commands from the schema (valid ones, then mutated ones: fields dropped, wrong types,
out-of-range and fractional numbers, integral numbers spelled 1e3 or 1000.0, unknown types, extra
nesting, huge ids, null, long texts), labels each with the schema, feeds them all to one
`EFB pipe --clock virtual --memory-save --seed 1`, after a `hello` that agrees on the newest version
(whose commands the schema describes: `adjust` `first` and `last` are 1.3's), and compares. "Accepted" means the answer to the
line has no error with a decoding code; game refusals (not_now, locked, stale, ...) count as accepted.
A schema-valid `game` other than 0 is drawn as 0: the engine under test hosts one game, which the
schema cannot know.
Every line carries a non-zero ifGen when it is valid, so the game never moves (generation 0): each
command is decoded, then refused as stale, and its answer depends on decoding alone.

Also checks that each answer's done echoes the line's id (an integral number as an integer) and that
every line the engine writes is valid against schema/event.schema.json.
Seeded and deterministic; uses only the standard library and `jsonschema` (python3-jsonschema).
Exits 0 when engine and schema agree on every case, 1 otherwise (one line per disagreement).
"""
import argparse
import copy
import json
import pathlib
import random
import subprocess
import sys

import jsonschema

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "schema"
DECODING = {"malformed_json", "not_an_object", "unknown_command", "invalid_params", "input_too_long",
            "too_deep", "invalid_utf8", "line_too_long"}
SAFE = 2**53 - 1


class Spelled:
    """A number written exactly as given (1e3, 1000.0, -0)."""

    def __init__(self, text):
        self.text = text


def encode(value, out):
    if isinstance(value, Spelled):
        out.append(value.text)
    elif isinstance(value, dict):
        out.append("{")
        for n, (key, item) in enumerate(value.items()):
            if n:
                out.append(",")
            out.append(json.dumps(key, ensure_ascii=False))
            out.append(":")
            encode(item, out)
        out.append("}")
    elif isinstance(value, list):
        out.append("[")
        for n, item in enumerate(value):
            if n:
                out.append(",")
            encode(item, out)
        out.append("]")
    else:
        out.append(json.dumps(value, ensure_ascii=False))


def line_of(value):
    out = []
    encode(value, out)
    return "".join(out)


STRINGS = ["", "x", "title", "continue", "door", "next", "café", "a b", "é\u0301", "👨\u200d👩\u200d👧", "\u2028",
           "ⓔ", "1", "null", "commands"]
WORDS = ["fly", "Next", "NEXT", "hello ", "", "bat ch", "cancelx", "wait2", "__proto__", "constructor"]


class Generator:
    def __init__(self, schema, rng):
        self.schema = schema
        self.rng = rng

    def resolve(self, node):
        while "$ref" in node and len(node) <= 2:
            target = self.schema
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            extra = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **extra} if extra else target
        if "$ref" in node:
            target = self.schema
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def merged(self, node):
        """A node with its allOf members' properties and required lists folded in."""
        node = self.resolve(node)
        properties, required = {}, []
        for member in node.get("allOf", []):
            inner = self.merged(member)
            properties.update(inner.get("properties", {}))
            required += inner.get("required", [])
        properties.update(node.get("properties", {}))
        required += node.get("required", [])
        if "anyOf" in node:
            required += self.rng.choice(node["anyOf"]).get("required", [])
        result = {k: v for k, v in node.items() if k not in ("allOf", "anyOf")}
        if properties:
            result["properties"] = properties
        if required:
            result["required"] = required
        return result

    def integer(self, node):
        low = node.get("minimum", -SAFE)
        high = node.get("maximum", SAFE)
        pick = self.rng.random()
        if pick < 0.3:
            value = self.rng.choice([low, high, low + 1 if low < high else low])
        else:
            value = self.rng.randint(low, min(high, low + 10))
        spell = self.rng.random()
        if spell < 0.15:
            return Spelled(f"{value}.0")
        if spell < 0.25 and value and value % 10 == 0 and abs(value) < 10**15:
            digits = str(abs(value)).rstrip("0")
            zeros = len(str(abs(value))) - len(digits)
            return Spelled(f"{'-' if value < 0 else ''}{digits}{self.rng.choice('eE')}{zeros}")
        return value

    def string(self, node):
        limit = node.get("maxLength")
        if limit and self.rng.random() < 0.3:
            unit = self.rng.choice(["a", "é", "e\u0301", "👨\u200d👩\u200d👧", "😀"])
            count = limit // len(unit) + self.rng.choice([0, 0, 1])
            return (unit * count)[: limit + self.rng.choice([0, 1])]
        return self.rng.choice(STRINGS)

    def value(self, node, depth=0):
        node = self.merged(node)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return self.rng.choice(node["enum"])
        if "oneOf" in node:
            choice = self.value(self.rng.choice(node["oneOf"]), depth + 1)
            forbidden = node.get("not", {}).get("required", [])
            if isinstance(choice, dict):
                for key in forbidden:
                    choice.pop(key, None)
            return choice
        kind = node.get("type", "object" if "properties" in node else None)
        if isinstance(kind, list):
            kind = self.rng.choice(kind)
        if kind == "integer":
            return self.integer(node)
        if kind == "string":
            return self.string(node)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "array":
            if "prefixItems" in node:
                return [self.value(item, depth + 1) for item in node["prefixItems"]]
            low = node.get("minItems", 0)
            high = min(node.get("maxItems", 4), low + 4 if depth < 2 else low + 1)
            items = node.get("items", {"type": "string"})
            return [self.value(items, depth + 1) for _ in range(self.rng.randint(low, high))]
        if kind == "object":
            properties = node.get("properties", {})
            required = node.get("required", [])
            result = {}
            for name, child in properties.items():
                if name in required or self.rng.random() < 0.5:
                    result[name] = self.value(child, depth + 1)
            extra = node.get("additionalProperties")
            if isinstance(extra, dict):
                for _ in range(self.rng.randint(0, 2)):
                    result[self.rng.choice(["next", "activate", "menu", "x"])] = self.value(extra, depth + 1)
            return result
        return None

    def command(self):
        return self.value(self.rng.choice(self.schema["oneOf"]))


def replacement(rng):
    return rng.choice([
        None, True, False, 0, -1, 1, 1.5, Spelled("5.0"), Spelled("1e3"), Spelled("1E3"), Spelled("-0"),
        Spelled("1.5e0"), Spelled("1e400"), SAFE, SAFE + 1, -SAFE, -SAFE - 1, Spelled("1e20"), 2**64, 2**63 - 1,
        "", "x", "next", "1", [], [1, 1], [[1, 0], [1, 1]], {}, {"min": [1, 0], "max": [1, 1]}, {"type": "next"},
        [{"type": "next"}], Spelled("86400000.0"), Spelled("86400001"), Spelled("0.0"),
    ])


def nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nodes(item, path + (index,))


def mutate(command, rng):
    """One random change somewhere in the command (or the command itself)."""
    places = list(nodes(command))
    path, node = rng.choice(places)
    how = rng.choice(["drop", "replace", "replace", "wrap", "type", "number", "id", "nest", "whole"])
    if how == "whole" or not path:
        return rng.choice([[command], {"command": command}, "next", 42, None, Spelled("1e3"), command])
    parent = command
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    if how == "drop":
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    elif how == "replace":
        parent[key] = replacement(rng)
    elif how == "wrap":
        parent[key] = rng.choice([[node], {"value": node}])
    elif how == "type":
        target = command if rng.random() < 0.7 else parent
        if isinstance(target, dict):
            target["type"] = rng.choice(WORDS + ["batch", "hello", "restore", "cancel", "quit"])
    elif how == "number":
        parent[key] = rng.choice([Spelled("7.0"), Spelled("7.25"), Spelled("7e0"), Spelled("-1"), Spelled("0.5"),
                                  Spelled("1e15"), Spelled("9007199254740992"), Spelled("9007199254740991.0")])
    elif how == "id":
        target = parent if isinstance(parent, dict) else command
        items = command.get("commands") if isinstance(command, dict) else None
        if isinstance(items, list) and items and isinstance(items[0], dict) and rng.random() < 0.5:
            target = rng.choice([item for item in items if isinstance(item, dict)] or [target])
        if isinstance(target, dict):
            target["id"] = rng.choice([None, SAFE, -SAFE, SAFE + 1, Spelled("1e3"), Spelled("1e16"), 1.5, [1], "k",
                                       Spelled("-9007199254740991.0"), Spelled("9.007199254740991e15")])
    elif how == "nest":
        target = parent if isinstance(parent, dict) else command
        if isinstance(target, dict):
            deep = "x"
            for _ in range(rng.randint(1, 40)):
                deep = [deep] if rng.random() < 0.5 else {"k": deep}
            target["extra"] = deep
    return command


def cases(schema, rng, count):
    generator = Generator(schema, rng)
    produced = []
    while len(produced) < count:
        command = generator.command()
        if rng.random() < 0.6:
            for _ in range(rng.randint(1, 2)):
                command = mutate(command, rng)
        if isinstance(command, dict) and rng.random() < 0.02 and command.get("type") == "batch":
            command["commands"] = [{"type": "ping"}] * rng.choice([1000, 1001])
        if isinstance(command, dict):
            # A valid command must not run: the guard keeps the game at generation 0.
            if "ifGen" not in command or json.loads(line_of({"g": command["ifGen"]}))["g"] in (0, False):
                command["ifGen"] = rng.choice([1, Spelled("7.0"), Spelled("1e3"), SAFE])
            # The schema cannot know how many games the engine hosts: this one hosts one, game 0.
            if "game" in command:
                game = json.loads(line_of({"g": command["game"]}))["g"]
                if isinstance(game, (int, float)) and not isinstance(game, bool) and 1 <= game <= SAFE and game == int(game):
                    command["game"] = rng.choice([0, Spelled("0.0"), Spelled("0e3")])
            if "id" not in command and rng.random() < 0.9:
                command["id"] = rng.choice([f"c{len(produced)}", len(produced) + 1])
        produced.append(line_of(command))
    return produced


def depth(value):
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


def expected_reply(message):
    if not isinstance(message, dict) or "id" not in message:
        return None
    ident = message["id"]
    if isinstance(ident, float):
        return int(ident)
    return ident


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("efb")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--keep", help="write the command lines to this file")
    options = parser.parse_args(argv[1:])
    rng = random.Random(options.seed)
    command_schema = json.loads((SCHEMAS / "command.schema.json").read_text())
    event_schema = json.loads((SCHEMAS / "event.schema.json").read_text())
    commands = jsonschema.validators.validator_for(command_schema)(command_schema)
    events = jsonschema.validators.validator_for(event_schema)(event_schema)
    checked = set()
    lines = cases(command_schema, rng, options.count)
    if options.keep:
        pathlib.Path(options.keep).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    # The newest version the engine speaks: the schema is that version's.
    newest = '{"type":"hello","id":"newest","protocol":{"min":[1,0],"max":[1,999]}}\n'
    run = subprocess.run([options.efb, "pipe", "--clock", "virtual", "--memory-save", "--seed", "1"],
                         input=(newest + "".join(line + "\n" for line in lines)).encode(), capture_output=True,
                         timeout=300)
    answers, current = [], []
    problems = 0
    for raw in run.stdout.decode("utf-8").split("\n")[:-1]:
        event = json.loads(raw)
        shape = json.dumps({**event, "seq": 1}, sort_keys=True)
        for error in ([] if shape in checked else events.iter_errors(event)):
            print(f"engine wrote an invalid event: {raw[:200]}: {error.message}", file=sys.stderr)
            problems += 1
        checked.add(shape)
        current.append(event)
        if event["type"] == "done":
            answers.append(current)
            current = []
    answers = answers[1:]  # the newest version's hello
    if len(answers) != len(lines):
        print(f"{len(lines)} lines, {len(answers)} answers (status {run.returncode})", file=sys.stderr)
        return 1
    accepted_valid = refused_invalid = 0
    for line, answer in zip(lines, answers):
        message = json.loads(line)
        # Nesting depth is a framing rule no schema states: deeper than 64 is refused as too_deep.
        valid = commands.is_valid(message) and depth(message) <= 64
        codes = [e["code"] for e in answer if e["type"] == "error"]
        accepted = not any(code in DECODING for code in codes)
        if valid != accepted:
            print(f"schema {'accepts' if valid else 'refuses'}, engine {'accepts' if accepted else 'refuses'}: "
                  f"{line[:300]} -> {[e for e in answer if e['type'] == 'error']}", file=sys.stderr)
            problems += 1
        if valid:
            accepted_valid += 1
            if answer[-1].get("replyTo") != expected_reply(message) or type(answer[-1].get("replyTo")) is float:
                print(f"done has replyTo {answer[-1].get('replyTo')!r}: {line[:200]}", file=sys.stderr)
                problems += 1
        else:
            refused_invalid += 1
    print(f"{len(lines)} commands ({accepted_valid} valid, {refused_invalid} invalid), {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
