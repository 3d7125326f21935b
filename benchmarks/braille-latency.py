#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Key-to-display latency of `efb braille` through a real BRLTTY, against a bare BrlAPI echo client.

Starts Debian's brltty with its virtual driver on free loopback ports and acts as a 40-cell display:
presses a key, and times how long until BRLTTY shows the display's next update. It does this for
`efb braille` (LNDN/LNUP between two elements of the first page) and for a minimal python3-brlapi
client that only writes the number of keys it has seen; the difference is what the game adds.

Usage: benchmarks/braille-latency.py [--presses N] [--efb PATH]
Needs: brltty, python3-brlapi (Debian), a built efb (default .build/release/efb). Any Python 3 runs it:
the echo client runs on one that imports brlapi (this one, else Debian's /usr/bin/python3).
"""
import argparse
import os
import random
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_brlapi_number():
    for _ in range(100):
        n = random.randint(200, 20000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", 4101 + n))
                return n
            except OSError:
                continue
    raise SystemExit("no free BrlAPI port")


class Display:
    """BRLTTY with the virtual driver, and this script as its display."""

    def __init__(self):
        self.port = free_port()
        self.number = free_brlapi_number()
        self.folder = tempfile.mkdtemp(prefix="efb-bench-")
        self.brltty = subprocess.Popen(
            ["brltty", "-n", "-e", "-q", "-b", "vr", "-d", f"server:127.0.0.1:{self.port}", "-x", "no",
             "-s", "no", "-A", f"host=127.0.0.1:{self.number},auth=none", "-f", "/dev/null", "-F", "/dev/null",
             "-W", self.folder, "-U", self.folder, "-P", os.path.join(self.folder, "pid")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if "listening on" in self.brltty.stderr.readline():
                break
        self.socket = socket.create_connection(("127.0.0.1", self.port))
        self.socket.sendall(b"cells 40\n")
        self.pending = b""
        self.visual = None

    @property
    def host(self):
        return f"127.0.0.1:{self.number}"

    def next_visual(self, timeout):
        """The next Visual line BRLTTY sends, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                if line.startswith(b"Visual "):
                    self.visual = line
                    return line
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.socket], [], [], remaining)
            if ready:
                data = self.socket.recv(4096)
                if not data:
                    return None
                self.pending += data

    def settle(self, expect, timeout=15):
        while True:
            line = self.next_visual(timeout)
            if line is None:
                raise SystemExit(f"the display never showed {expect!r}; last: {self.visual!r}")
            if expect.encode() in line:
                return

    def press(self, key):
        self.socket.sendall(key.encode() + b"\n")

    def close(self):
        self.socket.close()
        self.brltty.kill()
        self.brltty.wait()


def measure(display, keys, presses):
    """Milliseconds from each key to the display's next update."""
    samples = []
    for i in range(presses):
        time.sleep(0.06)  # the driver takes one key per arrival
        before = display.visual
        start = time.monotonic()
        display.press(keys[i % len(keys)])
        while True:
            line = display.next_visual(5)
            if line is None:
                raise SystemExit(f"no display update after key {i}")
            if line != before:
                break
        samples.append((time.monotonic() - start) * 1000)
    return samples


ECHO_CLIENT = r"""
import brlapi, sys
connection = brlapi.Connection(sys.argv[1].encode(), b"none")
connection.enterTtyModeWithPath([])
connection.writeText("echo ready")
count = 0
while True:
    connection.readKey()
    count += 1
    connection.writeText("key %d" % count)
"""


def brlapi_python():
    """A Python that imports brlapi: the one running this script, else Debian's, which python3-brlapi
    is installed for (a pyenv or venv Python does not see Debian's modules)."""
    tried = []
    for candidate in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if not candidate or not os.access(candidate, os.X_OK):
            continue
        tried.append(candidate)
        if subprocess.run([candidate, "-c", "import brlapi"], capture_output=True).returncode == 0:
            return candidate
    raise SystemExit(f"no Python here imports brlapi (tried {', '.join(tried) or 'none'}): "
                     "install Debian's python3-brlapi (apt-get install python3-brlapi)")


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--efb", default=os.path.join(ROOT, ".build/release/efb"))
    arguments = parser.parse_args()
    if not os.access(arguments.efb, os.X_OK):
        raise SystemExit(f"{arguments.efb} is not built: swift build -c release (efb and efb-full)")

    results = {}
    python = brlapi_python()
    display = Display()
    echo = subprocess.Popen([python, "-c", ECHO_CLIENT, display.host], stderr=subprocess.PIPE, text=True)
    try:
        try:
            display.settle("echo ready")
        except SystemExit:
            if echo.poll() is not None:
                raise SystemExit(f"the echo client ({python}) ended with {echo.returncode}: "
                                 f"{echo.stderr.read().strip()[-500:]}")
            raise
        results["bare BrlAPI echo client"] = measure(display, ["LNDN"], arguments.presses)
    finally:
        echo.kill()
        display.close()

    display = Display()
    game = subprocess.Popen([arguments.efb, "braille", "--host", display.host, "--auth", "none",
                             "--memory-save", "--seed", "1"], stderr=subprocess.DEVNULL)
    try:
        display.settle("Darkness hdr 1/3")
        results["efb braille"] = measure(display, ["LNDN", "LNUP"], arguments.presses)
    finally:
        game.terminate()
        game.wait()
        display.close()

    print(f"{arguments.presses} key presses each, 40-cell virtual display, BRLTTY "
          f"{subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'brltty'], capture_output=True, text=True).stdout}")
    print(f"{'client':<26}{'p50 ms':>9}{'p95 ms':>9}{'mean ms':>9}")
    for name, samples in results.items():
        print(f"{name:<26}{percentile(samples, .5):9.1f}{percentile(samples, .95):9.1f}"
              f"{statistics.mean(samples):9.1f}")
    echo_samples, game_samples = results["bare BrlAPI echo client"], results["efb braille"]
    print(f"{'added by efb':<26}{percentile(game_samples, .5) - percentile(echo_samples, .5):9.1f}"
          f"{percentile(game_samples, .95) - percentile(echo_samples, .95):9.1f}"
          f"{statistics.mean(game_samples) - statistics.mean(echo_samples):9.1f}")


if __name__ == "__main__":
    main()
