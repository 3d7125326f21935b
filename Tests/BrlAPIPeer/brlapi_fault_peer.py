#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A BrlAPI server that lets clients connect, then fails them: a fault injector for the Braille tests.

It speaks just enough of BrlAPI's protocol (version 8) for brlapi__openConnection to succeed with
authorization "none", then fails the client's first request, which is the display-size request
that entering tty mode begins with:

  close   close the connection, as a BRLTTY that goes away between the two steps would;
  error   answer with an error packet (BRLAPI_ERROR_DEVICEBUSY), as a busy BRLTTY would.

Every packet is a header of two 32-bit big-endian numbers, the payload's size and the packet type,
then the payload. The server speaks first: VERSION (the protocol version), the client answers with
its VERSION, then the server sends AUTH with the methods it takes; with "none" alone the client is
connected without answering.

Usage: brlapi_fault_peer.py close|error PORT
It prints "listening" once it accepts connections, then "failed N" after failing the Nth client,
and serves until it is killed.
"""

import socket
import struct
import sys

PROTOCOL_VERSION = 8
PACKET_VERSION = ord("v")
PACKET_AUTH = ord("a")
PACKET_ERROR = ord("e")
AUTH_NONE = ord("N")
ERROR_DEVICEBUSY = 3


def send_packet(connection, packet_type, payload):
    connection.sendall(struct.pack(">II", len(payload), packet_type) + payload)


def receive_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise ConnectionError("the client closed the connection")
        data += chunk
    return data


def receive_packet(connection):
    size, packet_type = struct.unpack(">II", receive_exactly(connection, 8))
    return packet_type, receive_exactly(connection, size)


def fail(connection, mode):
    send_packet(connection, PACKET_VERSION, struct.pack(">I", PROTOCOL_VERSION))
    packet_type, _ = receive_packet(connection)
    if packet_type != PACKET_VERSION:
        raise ConnectionError(f"expected the client's version, got packet type {packet_type}")
    send_packet(connection, PACKET_AUTH, struct.pack(">I", AUTH_NONE))
    # Connected: the next packet is the client's first request.
    receive_packet(connection)
    if mode == "error":
        send_packet(connection, PACKET_ERROR, struct.pack(">I", ERROR_DEVICEBUSY))
        # Keep the connection until the client lets go of it.
        while connection.recv(4096):
            pass


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode not in ("close", "error"):
        sys.exit("usage: brlapi_fault_peer.py close|error PORT")
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen()
    print("listening", flush=True)
    failed = 0
    while True:
        connection, _ = server.accept()
        with connection:
            try:
                fail(connection, mode)
            except ConnectionError as error:
                print(f"client gone early: {error}", flush=True)
                continue
        failed += 1
        print(f"failed {failed}", flush=True)


if __name__ == "__main__":
    main()
