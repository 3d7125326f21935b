#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validate NDJSON lines against the protocol's JSON Schemas (draft 2020-12).

Usage: validate.py events FILE...     every line must be a valid event; seq counts up by one from its first
                                      value (in each game, when events say their game), except that
                                      the done of a restore may jump forward
       validate.py commands FILE...   every line must be a valid command
       validate.py adventure FILE...  each file must be a valid adventure (schema/adventure.schema.json)

Exits 0 when every line is valid, 1 otherwise, printing one line per problem on stderr.
Uses only the `jsonschema` package (Debian: python3-jsonschema).
"""
import json
import pathlib
import sys

import jsonschema

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "schema"


def validate_adventures(names):
    schema = json.loads((SCHEMAS / "adventure.schema.json").read_text())
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    problems = 0
    for name in names:
        try:
            adventure = json.loads(pathlib.Path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"{name}: cannot read: {error}", file=sys.stderr)
            problems += 1
            continue
        for error in sorted(validator.iter_errors(adventure), key=lambda e: list(e.path)):
            path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
            print(f"{name}: {path}: {error.message}", file=sys.stderr)
            problems += 1
    print(f"{len(names)} adventure files checked, {problems} problems")
    return 1 if problems else 0


def main(argv):
    if len(argv) < 3 or argv[1] not in ("events", "commands", "adventure"):
        print(__doc__, file=sys.stderr)
        return 2
    kind = argv[1]
    if kind == "adventure":
        return validate_adventures(argv[2:])
    schema = json.loads((SCHEMAS / ("event" if kind == "events" else "command")).with_suffix(".schema.json").read_text())
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    problems = 0
    lines = 0
    for name in argv[2:]:
        previous_seqs = {}  # by game: an engine hosting many (spec section 13) counts seq per game
        with open(name, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if not raw.endswith(b"\n"):
                    print(f"{name}:{number}: the last line has no newline", file=sys.stderr)
                    problems += 1
                try:
                    text = raw.decode("utf-8").rstrip("\n")
                except UnicodeDecodeError as error:
                    print(f"{name}:{number}: not UTF-8: {error}", file=sys.stderr)
                    problems += 1
                    continue
                if kind == "commands" and not text.strip():
                    continue
                if any(c in text for c in "\u2028\u2029\u0085"):
                    print(f"{name}:{number}: unescaped U+2028, U+2029 or U+0085", file=sys.stderr)
                    problems += 1
                try:
                    message = json.loads(text)
                except ValueError as error:
                    print(f"{name}:{number}: not JSON: {error}", file=sys.stderr)
                    problems += 1
                    continue
                lines += 1
                errors = sorted(validator.iter_errors(message), key=lambda e: list(e.path))
                for error in errors:
                    best = jsonschema.exceptions.best_match([error])
                    print(f"{name}:{number}: {best.message} at {list(best.absolute_path)}", file=sys.stderr)
                    problems += 1
                if kind == "events" and isinstance(message, dict) and isinstance(message.get("seq"), int):
                    previous_seq = previous_seqs.get(message.get("game"))
                    restored = message.get("type") == "done" and message["seq"] > previous_seq if previous_seq else False
                    # efb serve (spec section 12): lines a slow client lost end at an overflow error.
                    overflowed = message.get("code") == "overflow" and message["seq"] > (previous_seq or 0)
                    if previous_seq is not None and message["seq"] != previous_seq + 1 and not (restored or overflowed):
                        print(f"{name}:{number}: seq {message['seq']} does not follow {previous_seq}", file=sys.stderr)
                        problems += 1
                    previous_seqs[message.get("game")] = message["seq"]
    print(f"{lines} {kind} checked, {problems} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
