"""An AI SDK base class that behaves like the Python AI SDK of Saiblo's public game templates
(saiblo/saiblo-game-templates, ai/python/sdk/Client.py; see README.md here). Written anew,
not copied: only the behaviour that matters to a judger is reproduced.

  - a message from the logic is 8 ASCII digits (its length) and then that many bytes; the
    length is parsed with int(), so at the end of input int(b"") raises ValueError, which
    nothing catches: the process prints a traceback and exits with code 1;
  - an answer is a 4-byte big-endian signed length, then the text;
  - run() loops forever: it never returns by itself, so the AI only ends when its input ends
    (and then by that ValueError) or when it is killed.
"""

import sys


class Client:
    def _send(self, text):
        body = text.encode("utf-8")
        sys.stdout.buffer.write(len(body).to_bytes(4, byteorder="big", signed=True) + body)
        sys.stdout.flush()

    def _receive(self):
        stream = sys.stdin.buffer
        size = int(stream.read(8))  # ValueError at end of input, as upstream
        return stream.read(size).decode()

    def _answer(self, message):
        """The game's part: the reply to one message, or None for a message that needs none."""
        raise NotImplementedError()

    def run(self):
        while True:
            reply = self._answer(self._receive())
            if reply is not None:
                self._send(reply)
