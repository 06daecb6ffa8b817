"""Saiblo AI SDK for Python (seed 002), for arbiter's Saiblo logic and any logic that uses the
public templates' convention.

Wire, AI side:
  - from the judger: the logic's bodies, unchanged. arbiter's logic (like the public
    templates) prefixes each body with its length as 8 zero-padded decimal digits, so a body
    reads `00000009PLACE 3 4\n`;
  - to the judger: one frame per answer, a 4-byte big-endian length then the bytes.

Two levels:
  - `Saiblo`: `receive()` one message (str, None at end of input), `send(text)` one frame.
  - `Lines`: arbiter's line protocols over Saiblo: `read_line()` returns the lines of the
    received messages one by one; `write_line(line)` keeps `DEBUG ...` lines and sends them
    with the next answer line as one frame (the judger listens for exactly one message).
    A bot written against `Lines` also runs on plain stdin/stdout with `PlainLines`.
"""

import struct
import sys


class SaibloError(Exception):
    """The judger's bytes are not what the convention says."""


class Saiblo:
    def __init__(self, inp=None, out=None):
        self.inp = inp if inp is not None else sys.stdin.buffer
        self.out = out if out is not None else sys.stdout.buffer

    def _read_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.inp.read(n - len(data))
            if not chunk:
                return data
            data += chunk
        return data

    def receive(self):
        """One message from the logic, or None when the input ended."""
        head = self._read_exact(8)
        if not head:
            return None
        if len(head) < 8 or not head.isdigit():
            raise SaibloError("bad message length %r: expected 8 decimal digits" % head)
        n = int(head)
        body = self._read_exact(n)
        if len(body) < n:
            raise SaibloError("message truncated: %d of %d bytes" % (len(body), n))
        return body.decode("utf-8", "replace")

    def send(self, text):
        """One message to the logic (4-byte big-endian length + UTF-8 bytes)."""
        data = text.encode("utf-8")
        self.out.write(struct.pack(">I", len(data)) + data)
        self.out.flush()


class Lines:
    """Line protocol over Saiblo messages."""

    def __init__(self, channel=None):
        self.channel = channel if channel is not None else Saiblo()
        self.pending = []
        self.debug = []

    def read_line(self):
        while not self.pending:
            msg = self.channel.receive()
            if msg is None:
                return None
            self.pending.extend(msg.splitlines())
        return self.pending.pop(0)

    def write_line(self, line):
        if line == "DEBUG" or line.startswith("DEBUG "):
            self.debug.append(line)
            return
        self.channel.send("".join(d + "\n" for d in self.debug) + line + "\n")
        self.debug = []


class PlainLines:
    """The same interface on plain stdin/stdout (arbiter's in-process referee)."""

    def read_line(self):
        line = sys.stdin.readline()
        if not line:
            return None
        return line.rstrip("\r\n")

    def write_line(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
