#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""doctest.py must be able to fail: it is run on a copy of Protocol/README.md with one example of each
kind broken, and must report every one of them (and exit 1).

Usage: test_doctest.py EFB
"""
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# (what is broken, the text as it is, the text broken, what doctest.py must say about it).
BREAKS = [
    (
        "a line of the replayed exchange",
        '"gen":1,"index":2,"replyTo":1,"screen":"intro-1","seq":7,"type":"focus"}',
        '"gen":2,"index":2,"replyTo":1,"screen":"intro-1","seq":7,"type":"focus"}',
        "line 7 of the replay differs",
    ),
    (
        "a field table",
        "| `itemCount` | integer ≥ 1 |",
        "| `itemTotal` | integer ≥ 1 |",
        "the event rotor's table names",
    ),
    (
        "the capability table",
        "| `virtualClock` | present only when",
        "| `virtualClock` | offered only when",
        "the capability table is not the schema's",
    ),
    (
        "an error table message",
        '`unknown command "fly"`',
        '`unknown command "fly away"`',
        "unknown command \"fly away\"",
    ),
    (
        "a message quoted in the prose",
        '`not_now` "the focused element has no rotor"',
        '`not_now` "the focused element has no rotors"',
        "the focused element has no rotors",
    ),
    (
        "an event example",
        '"itemCount":5,"itemIndex":1,"replyTo":36',
        '"itemCount":6,"itemIndex":1,"replyTo":36',
        "this event is no line of the example transcripts",
    ),
]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = []
    for what, good, bad, _ in BREAKS:
        if text.count(good) != 1:
            print(f"test_doctest.py: {what}: {good!r} is not in README.md exactly once", file=sys.stderr)
            return 1
        lines.append((what, text[: text.index(good)].count("\n") + 1))
        text = text.replace(good, bad)
    with tempfile.TemporaryDirectory() as folder:
        broken = pathlib.Path(folder) / "README.md"
        broken.write_text(text, encoding="utf-8")
        result = subprocess.run(
            [sys.executable, str(ROOT / "tools/doctest.py"), sys.argv[1], str(broken)],
            capture_output=True,
            text=True,
            timeout=600,
        )
    report = result.stderr
    failures = []
    if result.returncode != 1:
        failures.append(f"doctest.py exited {result.returncode}, not 1")
    for (what, line), (_, _, _, said) in zip(lines, BREAKS):
        if said not in report:
            failures.append(f"{what} (line {line}) was broken and doctest.py did not say {said!r}")
    if report.count("README.md:") < len(BREAKS):
        failures.append(f"doctest.py found fewer problems than the {len(BREAKS)} made")
    for failure in failures:
        print(f"test_doctest.py: {failure}", file=sys.stderr)
    if failures:
        print(report, file=sys.stderr)
        return 1
    print(f"test_doctest.py: doctest.py found all {len(BREAKS)} broken examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
