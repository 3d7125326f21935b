#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The pipe protocol's speed and size, measured side by side with public tools, in one run.

    benchmarks/pipe-benchmark.py [--binary PATH] [--lines N] [--latency-commands N]
                                 [--cold-runs N] [--bot-runs N] [--markdown FILE]

Measures, against the targets the project set itself:

a. Pipelined throughput: a long recorded command stream (a whole game played by the reference bot,
   clients/python/bot.py, recorded, then repeated with `replay` between games up to --lines lines)
   through `efb pipe --clock virtual --memory-save` and through `jq -c .`, both reading a file and
   writing to /dev/null; commands per second. Target: efb at least as fast as jq.
b. Lock-step latency: one driver (the same code for both) writes one command and waits for its
   `done` (efb) or writes one line and waits for its echo (`cat`); p50 and p95. Target: efb within
   1.25 times cat.
c. Cold start: from spawning `efb pipe` to reading its hello line, median of --cold-runs runs
   (target: half of `jq -n 1`'s whole run, spawned and waited for the same way); peak RSS over a
   whole game, read as VmHWM from /proc/PID/status before the end of input and as ru_maxrss from
   wait4, and over the whole throughput stream as ru_maxrss (target 8 MiB for both).
d. A whole game played by the reference bot, in this process, including the engine's start
   (target 100 ms).
e. Instructions per command under valgrind's callgrind (a count, not a time: the same binary and
   input give the same figure on a busy machine): a fixed stream of --callgrind-lines commands
   minus a stream of hello and quit alone, divided by the commands; `jq -c .` on the same stream
   (target: at most twice jq's per line). Skipped when valgrind is missing (`apt-get install valgrind`).

Prints a Markdown table with the machine (nproc, CPU model, kernel), the date and the ratios.
Needs: python3 (standard library), jq (`apt-get install jq`), cat, a release build of efb
(default: $EFB_BINARY, else .build/release/efb): scripts/build-release builds it as the Debian package
links it.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))

import bot  # noqa: E402
from efb_client import Engine  # noqa: E402

PIPE_ARGS = ["--clock", "virtual", "--memory-save"]

TARGETS = {
    "throughput_ratio": 1.0,  # efb commands/s ÷ jq commands/s, at least
    "latency_ratio": 1.25,  # efb ÷ cat, at most
    "cold_start_ratio": 0.5,  # efb's cold start ÷ jq -n 1's whole run, at most
    "rss_mib": 8.0,  # over a whole game and over the whole stream
    "bot_ms": 100.0,
    "instructions_ratio": 2.0,  # efb's instructions per command ÷ jq's per line, at most
}


# --------------------------------------------------------------------------------------------------
# Machine


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count()
    return {
        "nproc": nproc,
        "cpu": model,
        "kernel": platform.release(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def repository_state():
    try:
        commit = subprocess.run(
            ["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return commit + (" + uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# --------------------------------------------------------------------------------------------------
# Helpers


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def run_timed(argv, stdin_path):
    """Runs argv with a file on stdin and /dev/null as stdout: wall seconds."""
    with open(stdin_path, "rb") as stdin:
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        process.wait()
        elapsed = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"{argv[0]} exited with {process.returncode}")
    return elapsed


def mib(kib):
    return kib / 1024.0


# --------------------------------------------------------------------------------------------------
# The command stream


def record_game(binary):
    """One whole game played by the reference bot: its commands, without ids."""
    ok, summary, player = bot.run(binary=binary, seed=1)
    if not ok:
        raise SystemExit(f"the bot could not finish the game, so nothing can be recorded: {summary}")
    return player.history, player.total_levels, summary


def build_stream(game, lines_wanted, path):
    """hello, then the game, `replay`, the game again... until `lines_wanted` lines, then quit."""
    hello = {"type": "hello", "protocol": 1, "client": "pipe-benchmark"}
    out = [hello]
    games = 0
    while len(out) < lines_wanted:
        if games:
            out.append({"type": "replay"})
        out.extend(game)
        games += 1
    out.append({"type": "quit"})
    with open(path, "w") as handle:
        for number, command in enumerate(out, start=1):
            handle.write(json.dumps({**command, "id": number}, separators=(",", ":")) + "\n")
    return len(out), games


def check_stream(binary, path, games):
    """Runs the stream once and checks every game in it reached the end screen."""
    result = subprocess.run(
        [binary, "pipe", *PIPE_ARGS], stdin=open(path, "rb"), capture_output=True, check=True
    )
    lines = result.stdout.count(b"\n")
    escaped = result.stdout.count(b'"reason":"escaped"')
    dones = result.stdout.count(b'"type":"done"')
    return {"events": lines, "bytes": len(result.stdout), "escaped": escaped, "games": games, "dones": dones}


# --------------------------------------------------------------------------------------------------
# a. Throughput


def throughput(binary, jq, path, commands, runs):
    engine_times, jq_times = [], []
    for _ in range(runs):
        engine_times.append(run_timed([binary, "pipe", *PIPE_ARGS], path))
        jq_times.append(run_timed([jq, "-c", "."], path))
    engine_rate = commands / statistics.median(engine_times)
    jq_rate = commands / statistics.median(jq_times)
    return {
        "efb": engine_rate,
        "jq": jq_rate,
        "ratio": engine_rate / jq_rate,
        "efb_times": engine_times,
        "jq_times": jq_times,
    }


# --------------------------------------------------------------------------------------------------
# b. Lock-step latency


class Peer:
    """A process driven in lock step: write one line, read until the reply is complete."""

    def __init__(self, argv, is_complete):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.fd_in, self.fd_out = self.process.stdin.fileno(), self.process.stdout.fileno()
        self.is_complete = is_complete
        self.name = argv[0]

    def round_trip(self, line):
        """One line there and its reply back, in µs."""
        buffer = b""
        started = time.perf_counter_ns()
        os.write(self.fd_in, line)
        while not self.is_complete(buffer, line):
            chunk = os.read(self.fd_out, 65536)
            if not chunk:
                raise SystemExit(f"{self.name} ended early")
            buffer += chunk
        return (time.perf_counter_ns() - started) / 1000.0

    def close(self):
        self.process.stdin.close()
        while os.read(self.fd_out, 65536):
            pass
        self.process.stdout.close()
        self.process.wait()


def lockstep_pair(binary, lines, warmup, jq=None):
    """efb and cat side by side: each line goes to efb, then to cat, so both are measured under the
    same conditions (this machine's other load varies over seconds). With `jq`, each line also goes
    to `jq --unbuffered -c .`, for scale: what a process that parses and prints each line costs in
    lock step (the third list, empty without jq)."""
    efb = Peer([binary, "pipe", *PIPE_ARGS], engine_done)
    cat = Peer(["cat"], echoed)
    parser = Peer([jq, "--unbuffered", "-c", "."], echoed) if jq else None
    efb_times, cat_times, jq_times = [], [], []
    try:
        # The engine writes its opening (hello, screen, focus, progress) before any command; the
        # reply to a first ping ends after it, so the same completion test reads past it.
        efb.round_trip(b'{"type":"ping","id":"warm-up"}\n')
        for number, line in enumerate(lines):
            engine_time = efb.round_trip(line)
            cat_time = cat.round_trip(line)
            jq_time = parser.round_trip(line) if parser else None
            if number >= warmup:
                efb_times.append(engine_time)
                cat_times.append(cat_time)
                if parser:
                    jq_times.append(jq_time)
    finally:
        efb.close()
        cat.close()
        if parser:
            parser.close()
    return efb_times, cat_times, jq_times


def engine_done(buffer, line):
    if not buffer.endswith(b"\n"):
        return False
    last = buffer[buffer.rfind(b"\n", 0, len(buffer) - 1) + 1 :]
    return b'"type":"done"' in last


def echoed(buffer, line):
    return len(buffer) >= len(line) and buffer.endswith(b"\n")


def latency(binary, path, count, jq=None, warmup=200):
    with open(path, "rb") as handle:
        lines = [line for _, line in zip(range(count + warmup + 1), handle)]
    lines = [line for line in lines if b'"type":"quit"' not in line][: count + warmup]
    efb, cat, parser = lockstep_pair(binary, lines, warmup, jq)
    # The same, with this process and both children on one CPU: no cross-CPU wake-ups.
    pinned = None
    if hasattr(os, "sched_setaffinity"):
        saved = os.sched_getaffinity(0)
        try:
            os.sched_setaffinity(0, {min(saved)})
            pinned = lockstep_pair(binary, lines, warmup, jq)
        finally:
            os.sched_setaffinity(0, saved)
    # The same commands through the Python client (ids, JSON decoding, reply bookkeeping).
    commands = [json.loads(line) for line in lines]
    client = []
    with Engine(PIPE_ARGS, binary=binary, check=False) as engine:
        for number, command in enumerate(commands):
            command.pop("id", None)
            started = time.perf_counter_ns()
            engine.send(command)
            if number >= warmup:
                client.append((time.perf_counter_ns() - started) / 1000.0)
    return {
        "efb": efb,
        "cat": cat,
        "jq": parser,
        "pinned": pinned,
        "client": client,
    }


# --------------------------------------------------------------------------------------------------
# c. Cold start and memory


def cold_start(binary, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        process = subprocess.Popen(
            [binary, "pipe", *PIPE_ARGS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        buffer = b""
        while b"\n" not in buffer:
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                raise SystemExit("efb ended before its hello")
            buffer += chunk
        times.append((time.perf_counter() - started) * 1000)
        if not buffer.startswith(b"{") or b'"type":"hello"' not in buffer.split(b"\n")[0]:
            raise SystemExit(f"the first line is not hello: {buffer[:120]!r}")
        process.stdin.close()
        process.stdout.read()
        process.stdout.close()
        process.wait()
    # For scale: spawning cat and reading one echoed line, the same way.
    floor = []
    for _ in range(runs):
        started = time.perf_counter()
        process = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        os.write(process.stdin.fileno(), b"{}\n")
        buffer = b""
        while b"\n" not in buffer:
            buffer += os.read(process.stdout.fileno(), 65536)
        floor.append((time.perf_counter() - started) * 1000)
        process.stdin.close()
        process.stdout.close()
        process.wait()
    return times, floor


def game_lines(game):
    lines = [json.dumps({"type": "hello", "protocol": 1, "id": 0}) + "\n"]
    lines += [json.dumps({**command, "id": number}) + "\n" for number, command in enumerate(game, start=1)]
    lines.append(json.dumps({"type": "state", "id": "last"}) + "\n")
    return "".join(lines).encode()


def jq_run(jq, runs):
    """Spawning `jq -n 1` and waiting for it to end, the way cold_start spawns efb."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([jq, "-n", "1"], stdout=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - started) * 1000)
    return times


def callgrind_instructions(argv, stdin_path):
    """Instructions the program executed reading `stdin_path`, as callgrind counts them."""
    with tempfile.TemporaryDirectory(prefix="efb-callgrind-") as folder:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out", *argv],
            stdin=open(stdin_path, "rb"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=True,
        )
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    raise SystemExit(f"callgrind printed no count: {result.stderr[-300:]}")


def instructions(binary, jq, game, lines, folder):
    """Instructions per command (the stream's count less a hello-and-quit stream's), and per jq line."""
    stream = os.path.join(folder, "callgrind.ndjson")
    commands, _ = build_stream(game, lines, stream)
    empty = os.path.join(folder, "empty.ndjson")
    build_stream(game, 1, empty)
    # valgrind 3.19 (Debian 12) gives up on the DWARF 5 that Swift 6.3 writes: callgrind counts a copy
    # without the debug sections (the same code), beside the binary so it finds the adventures as it does.
    measured = binary
    if shutil.which("objcopy"):
        measured = os.path.join(os.path.dirname(os.path.abspath(binary)), f".efb-callgrind-{os.getpid()}")
        subprocess.run(["objcopy", "--strip-debug", binary, measured], check=True)
    try:
        engine = callgrind_instructions([measured, "pipe", *PIPE_ARGS], stream)
        start = callgrind_instructions([measured, "pipe", *PIPE_ARGS], empty)
    finally:
        if measured != binary:
            os.unlink(measured)
    jq_total = callgrind_instructions([jq, "-c", "."], stream)
    jq_start = callgrind_instructions([jq, "-c", "."], empty)
    return {
        "commands": commands,
        "per_command": (engine - start) / (commands - 2),
        "start": start,
        "jq_per_line": (jq_total - jq_start) / (commands - 2),
        "jq_start": jq_start,
    }


def peak_memory(binary, game, runs=3):
    """A whole game, pipelined; VmHWM (and what it is made of) read from /proc/PID/status after
    the last reply, before the end of input."""
    data = game_lines(game)
    peaks = []
    for _ in range(runs):
        process = subprocess.Popen([binary, "pipe", *PIPE_ARGS], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        # Write from a thread while reading here: either pipe could fill otherwise.
        writer = threading.Thread(target=lambda: (process.stdin.write(data), process.stdin.flush()))
        writer.start()
        for line in process.stdout:
            if b'"type":"done"' in line and b'"replyTo":"last"' in line:
                break
        else:
            raise SystemExit("efb ended before the last reply")
        writer.join()
        fields = {}
        with open(f"/proc/{process.pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                if name in ("VmHWM", "VmRSS", "RssAnon", "RssFile", "RssShmem"):
                    fields[name] = int(value.split()[0])
        peaks.append(fields)
        process.stdin.close()
        process.stdout.read()
        process.stdout.close()
        process.wait()
    return max(peaks, key=lambda fields: fields["VmHWM"])


def maxrss_by_time(argv, data):
    """Peak RSS in KiB from wait4, as /usr/bin/time reports it (a child of this Python process
    would count Python's own pages, copied at fork, in its ru_maxrss). None without /usr/bin/time."""
    if not os.access("/usr/bin/time", os.X_OK):
        return None
    with tempfile.TemporaryFile() as stdin:
        stdin.write(data)
        stdin.seek(0)
        result = subprocess.run(
            ["/usr/bin/time", "-f", "%M", *argv], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
    return int(result.stderr.strip().splitlines()[-1])


# --------------------------------------------------------------------------------------------------
# d. The bot


def bot_runs(binary, runs):
    times = []
    summary = ""
    for seed in range(1, runs + 1):
        started = time.perf_counter()
        ok, summary, _ = bot.run(binary=binary, seed=seed)
        times.append((time.perf_counter() - started) * 1000)
        if not ok:
            raise SystemExit(f"the bot failed with seed {seed}: {summary}")
    # Also as a command, with the interpreter's own start.
    script = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "clients", "python", "bot.py"), "--binary", binary],
            check=True,
            capture_output=True,
        )
        script.append((time.perf_counter() - started) * 1000)
    return times, script, summary


# --------------------------------------------------------------------------------------------------


def verdict(ok):
    return "yes" if ok else "**no**"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="efb to measure (default: $EFB_BINARY, else .build/release/efb)")
    parser.add_argument("--lines", type=int, default=60000, help="lines in the throughput stream (default 60000)")
    parser.add_argument("--runs", type=int, default=5, help="throughput runs of each program (median; default 5)")
    parser.add_argument("--latency-commands", type=int, default=5000, help="lock-step commands (default 5000)")
    parser.add_argument("--cold-runs", type=int, default=50, help="cold starts (default 50)")
    parser.add_argument("--bot-runs", type=int, default=20, help="bot games (default 20)")
    parser.add_argument("--callgrind-lines", type=int, default=6000, help="commands counted by callgrind (default 6000)")
    parser.add_argument("--markdown", help="also write the report to this file")
    options = parser.parse_args()

    jq = shutil.which("jq")
    if jq is None:
        print("jq is missing; it is the peer of the throughput test. Install it with: apt-get install jq", file=sys.stderr)
        return 2
    if shutil.which("cat") is None:
        print("cat is missing (coreutils)", file=sys.stderr)
        return 2
    binary = options.binary or os.environ.get("EFB_BINARY") or os.path.join(ROOT, ".build", "release", "efb")
    if not os.access(binary, os.X_OK):
        print(f"no efb at {binary}: build it with swift build -c release --product efb", file=sys.stderr)
        return 2
    if "/debug/" in binary:
        print(f"warning: {binary} looks like a debug build; the targets are for the release build", file=sys.stderr)

    info = machine()
    with Engine(PIPE_ARGS, binary=binary) as engine:
        hello = engine.hello
        total_levels = engine.progress["total"]

    def say(message):
        print(message, file=sys.stderr, flush=True)

    say("recording a game played by the bot ...")
    game, _, recorded = record_game(binary)
    with tempfile.TemporaryDirectory(prefix="efb-bench-") as folder:
        stream = os.path.join(folder, "stream.ndjson")
        commands, games = build_stream(game, options.lines, stream)
        check = check_stream(binary, stream, games)
        say(f"stream: {commands} commands, {games} games; efb answers with {check['events']} events")
        say("a. throughput ...")
        a = throughput(binary, jq, stream, commands, options.runs)
        with open(stream, "rb") as handle:
            stream_rss = maxrss_by_time([binary, "pipe", *PIPE_ARGS], handle.read())
        say("b. lock-step latency ...")
        b = latency(binary, stream, options.latency_commands, jq)
        e = None
        if shutil.which("valgrind"):
            say("e. instructions under callgrind ...")
            e = instructions(binary, jq, game, options.callgrind_lines, folder)
    say("c. cold start and memory ...")
    cold, cold_floor = cold_start(binary, options.cold_runs)
    jq_whole = jq_run(jq, options.cold_runs)
    memory = peak_memory(binary, game)
    data = game_lines(game)
    rss = {
        "efb": maxrss_by_time([binary, "pipe", *PIPE_ARGS], data),
        "jq": maxrss_by_time([jq, "-c", "."], data),
        "cat": maxrss_by_time(["cat"], data),
    }
    say("d. bot ...")
    bot_times, script_times, bot_summary = bot_runs(binary, options.bot_runs)

    efb_p50, efb_p95 = percentile(b["efb"], 0.5), percentile(b["efb"], 0.95)
    cat_p50, cat_p95 = percentile(b["cat"], 0.5), percentile(b["cat"], 0.95)
    cli_p50, cli_p95 = percentile(b["client"], 0.5), percentile(b["client"], 0.95)
    pinned_note = ""
    if b["pinned"]:
        pe, pc, pj = b["pinned"]
        pinned_note = (
            f" Everything pinned to one CPU: efb p50 {percentile(pe, 0.5):.1f} / p95 {percentile(pe, 0.95):.1f} µs, "
            f"cat p50 {percentile(pc, 0.5):.1f} / p95 {percentile(pc, 0.95):.1f} µs "
            f"({percentile(pe, 0.5) / percentile(pc, 0.5):.2f}× and {percentile(pe, 0.95) / percentile(pc, 0.95):.2f}×)"
        )
        if pj:
            pinned_note += (
                f", `jq --unbuffered -c .` p50 {percentile(pj, 0.5):.1f} / p95 {percentile(pj, 0.95):.1f} µs "
                f"({percentile(pj, 0.5) / percentile(pc, 0.5):.2f}× and {percentile(pj, 0.95) / percentile(pc, 0.95):.2f}× cat)"
            )
        pinned_note += "."
    cold_median = statistics.median(cold)
    hwm = memory["VmHWM"]
    peak = mib(max(hwm, rss["efb"] or 0))

    def shown(kib):
        return "n/a" if kib is None else f"{mib(kib):.1f} MiB"

    bot_median = statistics.median(bot_times)

    rows = [
        (
            f"a. Pipelined throughput, {commands:,} commands",
            f"{a['efb']:,.0f} cmd/s",
            f"`jq -c .`: {a['jq']:,.0f} lines/s",
            f"{a['ratio']:.2f}× jq",
            "≥ 1.00× jq",
            verdict(a["ratio"] >= TARGETS["throughput_ratio"]),
        ),
        (
            f"b. Lock-step latency p50, {len(b['efb']):,} commands",
            f"{efb_p50:.1f} µs",
            f"`cat` echo: {cat_p50:.1f} µs",
            f"{efb_p50 / cat_p50:.2f}× cat",
            "≤ 1.25× cat",
            verdict(efb_p50 / cat_p50 <= TARGETS["latency_ratio"]),
        ),
        (
            "b. Lock-step latency p95",
            f"{efb_p95:.1f} µs",
            f"`cat` echo: {cat_p95:.1f} µs",
            f"{efb_p95 / cat_p95:.2f}× cat",
            "≤ 1.25× cat",
            verdict(efb_p95 / cat_p95 <= TARGETS["latency_ratio"]),
        ),
        (
            f"c. Cold start to the hello line, median of {len(cold)}",
            f"{cold_median:.1f} ms (p95 {percentile(cold, 0.95):.1f})",
            f"`jq -n 1` whole run: {statistics.median(jq_whole):.1f} ms; spawn `cat` + 1 echo: "
            f"{statistics.median(cold_floor):.1f} ms",
            f"{cold_median / statistics.median(jq_whole):.2f}× jq",
            "≤ 0.5× jq",
            verdict(cold_median <= TARGETS["cold_start_ratio"] * statistics.median(jq_whole)),
        ),
        (
            f"c. Peak RSS, a whole game ({total_levels} levels)",
            f"{mib(hwm):.1f} MiB VmHWM / {shown(rss['efb'])} ru_maxrss",
            f"ru_maxrss, same input: `jq -c .` {shown(rss['jq'])}, `cat` {shown(rss['cat'])}",
            f"{peak / TARGETS['rss_mib']:.2f}× target",
            "≤ 8 MiB",
            verdict(peak <= TARGETS["rss_mib"]),
        ),
        (
            f"c. Peak RSS, the whole throughput stream ({commands:,} commands)",
            f"{shown(stream_rss)} ru_maxrss",
            "—",
            "n/a" if stream_rss is None else f"{mib(stream_rss) / TARGETS['rss_mib']:.2f}× target",
            "≤ 8 MiB",
            "n/a" if stream_rss is None else verdict(mib(stream_rss) <= TARGETS["rss_mib"]),
        ),
        (
            f"d. Bot plays the whole game, with engine start, median of {len(bot_times)} seeds",
            f"{bot_median:.1f} ms (p95 {percentile(bot_times, 0.95):.1f})",
            f"`python3 bot.py` incl. interpreter: {statistics.median(script_times):.0f} ms",
            f"{bot_median / TARGETS['bot_ms']:.2f}× target",
            "≤ 100 ms",
            verdict(bot_median <= TARGETS["bot_ms"]),
        ),
    ]
    if e:
        rows.append(
            (
                f"e. Instructions per command (callgrind), {e['commands']:,} commands",
                f"{e['per_command']:,.0f} (start: {e['start'] / 1e6:.1f} M)",
                f"`jq -c .`: {e['jq_per_line']:,.0f} per line (start: {e['jq_start'] / 1e6:.1f} M)",
                f"{e['per_command'] / e['jq_per_line']:.1f}× jq",
                "≤ 2× jq",
                verdict(e["per_command"] / e["jq_per_line"] <= TARGETS["instructions_ratio"]),
            )
        )
    report = []
    report.append("### efb pipe benchmark")
    report.append("")
    report.append(
        f"Machine: {info['nproc']} CPUs ({info['cpu']}), Linux {info['kernel']}, Python {info['python']}; "
        f"{info['date']}; load average at the start {info['load']}."
    )
    built = datetime.datetime.fromtimestamp(os.path.getmtime(binary), datetime.timezone.utc)
    report.append(
        f"Engine: efb {hello['engine']} (`{binary}`, built {built:%Y-%m-%d %H:%M} UTC; repository HEAD "
        f"{repository_state()}); "
        f"adventure \"{hello['adventure']['title']}\", {total_levels} levels; `efb pipe {' '.join(PIPE_ARGS)}`."
    )
    report.append("")
    report.append("| Measure | efb | Peer | Ratio | Target | Met |")
    report.append("|---|---|---|---|---|---|")
    for row in rows:
        report.append("| " + " | ".join(row) + " |")
    report.append("")
    report.append(
        f"- Stream: the reference bot's recorded game ({len(game)} commands: {recorded}) repeated {games} times "
        f"with `replay` between games, plus hello and quit; efb answered with {check['events']:,} events "
        f"({check['bytes'] / 1e6:.1f} MB) and reached the end screen {check['escaped']} times in {games} games. "
        f"Both programs read the file and write to /dev/null; median of {options.runs} runs each "
        f"(efb {', '.join(f'{t * 1000:.0f}' for t in a['efb_times'])} ms; "
        f"jq {', '.join(f'{t * 1000:.0f}' for t in a['jq_times'])} ms)."
    )
    report.append(
        f"- Lock-step: the same driver (write one line, read until the reply is complete) for both, "
        f"alternating line by line between efb and cat; the first 200 commands are a warm-up. p99: efb {percentile(b['efb'], 0.99):.1f} µs, "
        f"cat {percentile(b['cat'], 0.99):.1f} µs. "
        + (
            f"For scale, `jq --unbuffered -c .` driven the same way, each line after efb's and cat's: "
            f"p50 {percentile(b['jq'], 0.5):.1f} / p95 {percentile(b['jq'], 0.95):.1f} µs "
            f"({percentile(b['jq'], 0.5) / cat_p50:.2f}× / {percentile(b['jq'], 0.95) / cat_p95:.2f}× cat): "
            f"a process that only parses and prints each line. "
            if b["jq"]
            else ""
        )
        + f"Through the Python client (`Engine.send`): "
        f"p50 {cli_p50:.1f} µs, p95 {cli_p95:.1f} µs."
        + pinned_note
    )
    report.append(
        f"- Memory at efb's peak (VmHWM read before the end of input): {mib(memory.get('RssAnon', 0)):.1f} MiB "
        f"anonymous, {mib(memory.get('RssFile', 0)):.1f} MiB file-backed (the pages of efb's own file and "
        f"of the C libraries it links that were touched). ru_maxrss is measured through /usr/bin/time, "
        f"because a child of this Python process would count Python's own pages, copied at fork, as its own."
    )
    report.append(
        f"- Cold start includes Python's fork and exec; min {min(cold):.1f} ms. "
        f"Bot: one game per seed 1..{len(bot_times)}, each a fresh engine; last summary: {bot_summary}."
    )
    report.append(f"- Load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}.")
    text = "\n".join(report)
    print(text)
    if options.markdown:
        with open(options.markdown, "w") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
