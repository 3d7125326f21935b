#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""efb web's limits, against the real binary, with plain sockets (no browser):

    python3 Tests/Web/test_limits.py [--binary PATH] [unittest options]

- under `prlimit --nofile=1024`, 1,100 idle connections and then 1,000 half-sent requests leave the
  server alive, below its descriptor limit, and a fresh page with the token is served within 5 s
  (its peak memory, VmHWM, is printed on standard error);
- a connection that sends nothing, or only part of a request head, or a head one byte at a time, is
  closed by the server after its header timeout;
- with 16 places (`prlimit --nofile=80`), when all are taken a new connection takes the place of the
  oldest one that was answered, and when all are WebSockets it is closed at once;
- HEAD answers as GET does, without a body;
- a WebSocket text frame that is not UTF-8 closes the socket with 1007;
- a port in use is said in one plain sentence, not a call signature;
- a `web-token` file beside the save is kept only when it is a regular file of ours with mode 0600:
  a file another may read, a symbolic link or a file of another user is replaced by a new token.

Needs a built efb (or efb-full) and util-linux's prlimit.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import os
import pwd
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest
from typing import Dict, List, Optional

sys.dont_write_bytecode = True

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPTIONS: Dict[str, str] = {}


def wait_for(what: str, condition, timeout: float = 10.0, step: float = 0.05):
    """Polls `condition` until it is truthy; fails with `what` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(step)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`efb web` on a port, its standard input held open (its end stops it), under `prefix` (prlimit)."""

    def __init__(self, folder: str, *arguments: str, port: int = 0, prefix: Optional[List[str]] = None) -> None:
        self.errors_path = os.path.join(folder, f"stderr-{time.monotonic_ns()}.txt")
        self.errors = open(self.errors_path, "wb")
        self.process = subprocess.Popen(
            [*(prefix or []), OPTIONS["binary"], "web", "--port", str(port), *arguments],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
        )
        self.line = self.process.stdout.readline().decode().strip()
        self.url = self.line
        if self.line.startswith("http://"):
            self.port = int(self.line.split(":")[2].split("/")[0])
            self.token = self.line.split("token=")[1]

    @property
    def standard_error(self) -> str:
        with open(self.errors_path, "rb") as file:
            return file.read().decode()

    def status(self, field: str) -> int:
        """A `/proc/PID/status` figure of efb itself (efb-full, whichever the binary execs), in kB."""
        with open(f"/proc/{self.process.pid}/status", encoding="utf-8") as file:
            for line in file:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        raise AssertionError(f"no {field} in /proc/{self.process.pid}/status")

    def descriptors(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def page(self, timeout: float = 5.0) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        connection.request("GET", f"/?token={self.token}")
        response = connection.getresponse()
        response.body = response.read()
        connection.close()
        return response

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()
        self.errors.close()


def open_connections(port: int, count: int, payload: bytes = b"", settle: float = 3.0) -> List[socket.socket]:
    """`count` connections to `port`, opened without waiting for each; `payload` sent on each that is
    established within `settle` seconds. The server may close or never accept some: that is its right."""
    sockets = []
    for _ in range(count):
        client = socket.socket()
        client.setblocking(False)
        client.connect_ex(("127.0.0.1", port))
        sockets.append(client)
    if payload:
        waiting = {client.fileno(): client for client in sockets}
        poller = select.poll()
        for descriptor in waiting:
            poller.register(descriptor, select.POLLOUT)
        deadline = time.monotonic() + settle
        while waiting and time.monotonic() < deadline:
            for descriptor, _ in poller.poll(100):
                client = waiting.pop(descriptor, None)
                poller.unregister(descriptor)
                if client is not None:
                    try:
                        client.send(payload)
                    except OSError:
                        pass
    return sockets


def closed_by_peer(client: socket.socket) -> bool:
    """Whether the server closed `client` (end of stream or reset); reads and drops what it sent."""
    try:
        data = client.recv(4096)
        return data == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


class LimitsTests(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="efb-web-limits-")
        self.servers: List[Server] = []
        self.sockets: List[socket.socket] = []

    def tearDown(self) -> None:
        for client in self.sockets:
            client.close()
        for server in self.servers:
            server.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def start(self, *arguments: str, port: int = 0, prefix: Optional[List[str]] = None) -> Server:
        server = Server(self.folder, *arguments, port=port, prefix=prefix)
        self.servers.append(server)
        return server

    def save(self, name: str = "save") -> str:
        folder = os.path.join(self.folder, name)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        return os.path.join(folder, "save.json")

    def test_exhaustion_leaves_the_server_alive_and_serving_the_page(self) -> None:
        server = self.start("--save", self.save(), prefix=["prlimit", "--nofile=1024"])
        self.assertTrue(server.url.startswith("http://"), server.standard_error)
        self.assertEqual(server.page().status, 200)
        self.sockets += open_connections(server.port, 1100)
        half = f"GET /?token={server.token} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUser-Agent: slow".encode()
        self.sockets += open_connections(server.port, 1000, payload=half)
        started = time.monotonic()
        try:
            response = server.page(timeout=5)
        except OSError as error:
            self.fail(f"no page within 5 s: {error!r}; alive: {server.process.poll() is None}")
        elapsed = time.monotonic() - started
        self.assertEqual(response.status, 200)
        self.assertIn(b"<html", response.body)
        self.assertLess(elapsed, 5)
        self.assertIsNone(server.process.poll(), "efb web died")
        descriptors = server.descriptors()
        self.assertLess(descriptors, 1024)
        peak = server.status("VmHWM")
        print(
            f"\nexhaustion: page in {elapsed:.2f} s; {descriptors} descriptors open; peak memory (VmHWM) {peak} kB",
            file=sys.stderr,
        )
        # The page again, with all those sockets still open on this side.
        self.assertEqual(server.page().status, 200)
        self.assertIsNone(server.process.poll(), "efb web died")

    def test_when_full_an_answered_connection_gives_its_place(self) -> None:
        # 80 descriptors: 16 places (WebLimits.reserve is 64).
        server = self.start("--memory-save", prefix=["prlimit", "--nofile=80"])
        self.assertTrue(server.url.startswith("http://"), server.standard_error)
        request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()
        answered = []
        for _ in range(16):
            client = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            client.sendall(request)
            self.assertIn(b" 401 ", client.recv(4096))  # answered, and kept open (keep-alive)
            answered.append(client)
        self.sockets += answered
        self.assertEqual(server.page().status, 200)
        self.assertEqual(answered[0].recv(4096), b"")  # the oldest gave its place
        self.assertIsNone(server.process.poll(), "efb web died")

    def test_when_every_place_is_a_websocket_a_new_connection_is_closed_at_once(self) -> None:
        server = self.start("--memory-save", prefix=["prlimit", "--nofile=80"])
        self.assertTrue(server.url.startswith("http://"), server.standard_error)
        cookie = server.page().getheader("Set-Cookie").split(";")[0]
        tabs = [self.websocket(server, cookie, f"tab-{index}")[0] for index in range(16)]
        refused = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        self.sockets.append(refused)
        started = time.monotonic()
        try:
            self.assertEqual(refused.recv(4096), b"")
        except ConnectionResetError:
            pass
        self.assertLess(time.monotonic() - started, 2)
        self.assertIsNone(server.process.poll(), "efb web died")
        tabs[0].close()
        self.assertEqual(wait_for("a place", lambda: self.page_or_none(server)).status, 200)

    def websocket(self, server: Server, cookie: str, name: str):
        """A WebSocket on the page's socket, its handshake read: the socket and a reader of its frames."""
        client = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        self.sockets.append(client)
        key = base64.b64encode(os.urandom(16)).decode()
        client.sendall(
            (
                f"GET /ws?client={name} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: http://127.0.0.1:{server.port}\r\nCookie: {cookie}\r\n\r\n"
            ).encode()
        )
        reader = client.makefile("rb")
        self.assertIn(b" 101 ", reader.readline())
        while reader.readline() not in (b"\r\n", b""):
            pass
        return client, reader

    @staticmethod
    def page_or_none(server: Server) -> Optional[http.client.HTTPResponse]:
        try:
            return server.page(timeout=1)
        except OSError:
            return None

    def test_idle_and_slow_connections_are_closed_after_the_header_timeout(self) -> None:
        server = self.start("--memory-save")
        idle = open_connections(server.port, 1)[0]
        half = open_connections(server.port, 1, payload=b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")[0]
        trickle = open_connections(server.port, 1, payload=b"G")[0]
        self.sockets += [idle, half, trickle]
        started = time.monotonic()
        request = b"ET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: " + b"a" * 200
        sent = 0
        closed: Dict[str, float] = {}
        while len(closed) < 3 and time.monotonic() - started < 20:
            if "trickle" not in closed and sent < len(request):
                try:
                    trickle.send(request[sent:sent + 1])
                    sent += 1
                except OSError:
                    pass
            for name, client in (("idle", idle), ("half", half), ("trickle", trickle)):
                if name not in closed and closed_by_peer(client):
                    closed[name] = time.monotonic() - started
            time.sleep(0.1)
        self.assertEqual(sorted(closed), ["half", "idle", "trickle"], f"closed so far: {closed}")
        self.assertLess(max(closed.values()), 12, f"{closed}")
        self.assertEqual(server.page().status, 200)

    def test_head_answers_as_get_without_a_body(self) -> None:
        server = self.start("--memory-save")
        for path, status in ((f"/?token={server.token}", 200), ("/", 401)):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            connection.request("HEAD", path)
            response = connection.getresponse()
            self.assertEqual(response.status, status, path)
            self.assertEqual(response.read(), b"")
            connection.close()

    def test_a_text_frame_that_is_not_utf8_closes_with_1007(self) -> None:
        server = self.start("--memory-save")
        page = server.page()
        cookie = page.getheader("Set-Cookie").split(";")[0]
        client, reader = self.websocket(server, cookie, "utf8-test")
        payload = b'{"type":"ping","id":"\xff\xfe"}'
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        client.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
        code = None
        deadline = time.monotonic() + 5
        try:
            while time.monotonic() < deadline:
                head = reader.read(2)
                if len(head) < 2:
                    break
                length = head[1] & 0x7F
                if length == 126:
                    length = struct.unpack("!H", reader.read(2))[0]
                elif length == 127:
                    length = struct.unpack("!Q", reader.read(8))[0]
                body = reader.read(length)
                if head[0] & 0x0F == 0x8:
                    code = struct.unpack("!H", body[:2])[0] if len(body) >= 2 else 1005
                    break
        except OSError:
            pass
        self.assertEqual(code, 1007)

    def test_a_port_in_use_is_said_in_a_sentence(self) -> None:
        port = free_port()
        first = self.start("--memory-save", port=port)
        self.assertTrue(first.url.startswith("http://"), first.standard_error)
        second = self.start("--memory-save", port=port)
        self.assertEqual(second.process.wait(timeout=30), 71)
        message = second.standard_error.strip()
        self.assertEqual(len(message.splitlines()), 1, message)
        self.assertTrue(message.startswith(f"efb web: cannot listen on 127.0.0.1:{port}: "), message)
        self.assertTrue(message.endswith("."), message)
        for signature in ("(", "errno", "descriptor"):
            self.assertNotIn(signature, message)

    def planted(self, name: str, plant) -> Server:
        """A server started with a `web-token` planted by `plant(path, token)` beside its save."""
        save = self.save(name)
        planted_token = "0123456789abcdef0123456789abcdef"
        plant(os.path.join(os.path.dirname(save), "web-token"), planted_token)
        server = self.start("--save", save)
        self.assertTrue(server.url.startswith("http://"), server.standard_error)
        server.planted_token = planted_token
        server.token_path = os.path.join(os.path.dirname(save), "web-token")
        return server

    @staticmethod
    def write(path: str, token: str, mode: int) -> None:
        with open(path, "w", encoding="utf-8") as file:
            file.write(token)
        os.chmod(path, mode)

    def assert_replaced(self, server: Server) -> None:
        self.assertNotEqual(server.token, server.planted_token)
        self.assertIn("web-token", server.standard_error)
        status = os.lstat(server.token_path)
        self.assertTrue(os.path.isfile(server.token_path) and not os.path.islink(server.token_path))
        self.assertEqual(status.st_uid, os.geteuid())
        self.assertEqual(status.st_mode & 0o777, 0o600)
        with open(server.token_path, encoding="utf-8") as file:
            self.assertEqual(file.read().strip(), server.token)

    def test_a_private_token_file_of_ours_is_kept(self) -> None:
        server = self.planted("ours", lambda path, token: self.write(path, token, 0o600))
        self.assertEqual(server.token, server.planted_token)
        self.assertNotIn("web-token", server.standard_error)

    def test_a_token_file_others_may_read_is_replaced(self) -> None:
        self.assert_replaced(self.planted("readable", lambda path, token: self.write(path, token, 0o644)))

    def test_a_token_symlink_is_replaced(self) -> None:
        target = os.path.join(self.folder, "elsewhere")

        def plant(path: str, token: str) -> None:
            self.write(target, token, 0o600)
            os.symlink(target, path)

        self.assert_replaced(self.planted("symlink", plant))
        with open(target, encoding="utf-8") as file:
            self.assertEqual(file.read(), "0123456789abcdef0123456789abcdef")  # the link's target untouched

    @unittest.skipUnless(os.geteuid() == 0, "making a file of another user needs root")
    def test_a_token_file_of_another_user_is_replaced(self) -> None:
        nobody = pwd.getpwnam("nobody")

        def plant(path: str, token: str) -> None:
            self.write(path, token, 0o600)
            os.chown(path, nobody.pw_uid, nobody.pw_gid)

        self.assert_replaced(self.planted("another", plant))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "efb"))
    arguments, rest = parser.parse_known_args()
    OPTIONS["binary"] = os.path.abspath(arguments.binary)
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()
