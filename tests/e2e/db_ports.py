"""Ports a test holds in front of a PostgreSQL server of its own (tests/e2e/own_postgresql.py), to make a database
fault happen exactly when the test wants it, never by timing luck.

- :class:`DroppingPort`: its first connections are accepted and dropped at once (as a server going down drops them);
- :class:`LosingPort`: carries everything, except that the server's answer to chosen COMMITs is swallowed and the
  client's connection dropped (or held, silent): the row is committed, its acknowledgement lost (or never coming);
- :class:`SilentPort`: accepts connections and never says a word (a host that has gone silent).
"""

from __future__ import annotations

import socket
import threading
from contextlib import suppress


class HeldPort:
    """A listening port served by a thread until :meth:`close`; ``handle`` takes each accepted connection."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = int(self.listener.getsockname()[1])
        self.done = threading.Event()
        self.accepted: list[socket.socket] = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        with self.listener:
            while not self.done.is_set():
                try:
                    connection, _ = self.listener.accept()
                except TimeoutError:
                    continue
                self.accepted.append(connection)
                self.handle(connection)

    def handle(self, connection: socket.socket) -> None:
        raise NotImplementedError

    def url(self, server_url: str, server_port: int) -> str:
        """``server_url`` through this port."""
        return server_url.replace(f":{server_port}/", f":{self.port}/")

    def close(self) -> None:
        self.done.set()
        self.thread.join(30)
        for connection in self.accepted:
            with suppress(OSError):
                connection.close()


class SilentPort(HeldPort):
    """Accepts every connection (the kernel completes the handshake) and never answers."""

    def handle(self, connection: socket.socket) -> None:
        pass  # kept open, unanswered, until close()


class DroppingPort(HeldPort):
    """Its first ``forward_after`` connections are accepted and dropped at once, the later ones carried to the
    server; None drops every one. Counted."""

    def __init__(self, server_port: int, *, forward_after: int | None) -> None:
        self.server_port, self.forward_after = server_port, forward_after
        self.dropped = 0
        super().__init__()

    def handle(self, connection: socket.socket) -> None:
        if self.forward_after is None or self.dropped < self.forward_after:
            connection.close()
            self.dropped += 1
            return
        forward(connection, self.server_port)


class LosingPort(HeldPort):
    """Carries every connection to the server; the first ``times`` transactions that send ``marker`` (an INSERT into
    a table) have their COMMIT carried to the server, the server's answer read and swallowed, and the client's
    connection dropped: the row committed, and the client never hears it. ``lost`` counts them. ``hold``: the
    connection is kept open instead, silent (the answer still on its way, as long as the test lasts)."""

    def __init__(self, server_port: int, *, marker: bytes, times: int = 1, hold: bool = False) -> None:
        self.server_port, self.marker, self.left, self.lost, self.hold = server_port, marker, times, 0, hold
        self.lock = threading.Lock()
        super().__init__()

    def handle(self, connection: socket.socket) -> None:
        server = socket.create_connection(("127.0.0.1", self.server_port))
        state = {"armed": False, "swallow": False}

        def upstream() -> None:
            try:
                while data := connection.recv(65536):
                    with self.lock:
                        if self.marker in data and self.left > 0:
                            self.left -= 1
                            state["armed"] = True
                    if state["armed"] and b"COMMIT" in data:
                        state["swallow"] = True  # set before the COMMIT goes: its answer comes after
                    server.sendall(data)
            except OSError:
                pass
            finally:
                shut(connection, server)

        def downstream() -> None:
            try:
                while data := server.recv(65536):
                    if state["swallow"]:  # the answer to the COMMIT: the server has committed
                        self.lost += 1
                        if self.hold:
                            self.done.wait()
                        break
                    connection.sendall(data)
            except OSError:
                pass
            finally:
                shut(connection, server)

        for part in (upstream, downstream):
            threading.Thread(target=part, daemon=True).start()


def forward(connection: socket.socket, server_port: int) -> None:
    """Carry ``connection`` to the server and back, each way in a thread of its own."""
    server = socket.create_connection(("127.0.0.1", server_port))
    for source, sink in ((connection, server), (server, connection)):
        threading.Thread(target=carry, args=(source, sink), daemon=True).start()


def carry(source: socket.socket, sink: socket.socket) -> None:
    """Bytes from one end to the other until either closes."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        shut(source, sink)


def shut(*ends: socket.socket) -> None:
    for end in ends:
        with suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)
