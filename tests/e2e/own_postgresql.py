"""A PostgreSQL cluster of a test's own, to stop and start (never the shared test server other workers use).

``initdb`` into a temporary folder, a free port, ``pg_ctl`` from /usr/lib/postgresql/*/bin (or PATH). The binaries
refuse to run as root: as root they run as the ``postgres`` user (``runuser``), the folder owned by it. Where the
binaries are missing the test is skipped with that reason, except under CI (the ``CI`` variable set), where it
fails: CI must run it.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def postgresql_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: the newest under /usr/lib/postgresql, else the one on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    """One stopped-and-started PostgreSQL server; ``url`` reaches its ``postgres`` database as superuser."""

    def __init__(self, bin_dir: Path, folder: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.url = f"postgresql+asyncpg://referee@127.0.0.1:{self.port}/postgres"
        self.as_postgres = os.geteuid() == 0

    def run(self, tool: str, *args: str) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise AssertionError(f"{tool} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def init(self) -> None:
        if self.as_postgres:
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        self.folder.chmod(0o755)
        self.run("initdb", "-D", str(self.data), "-U", "referee", "--auth=trust", "--no-sync", "-E", "UTF8")

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off")  # fmt: skip
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options, "-w", "start")

    def stop(self) -> None:
        """A fast stop (``pg_ctl stop -m fast``): open sessions are ended, as in a restart for an upgrade."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    async def stopped(self) -> None:
        await asyncio.to_thread(self.stop)

    async def started(self) -> None:
        await asyncio.to_thread(self.start)


@contextlib.contextmanager
def own_cluster() -> Iterator[Cluster]:
    """A fresh cluster, started; stopped and removed afterwards."""
    bin_dir = postgresql_bin()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        reason = "the PostgreSQL server binaries (initdb, pg_ctl) are not installed"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}, and CI must run this test")
        pytest.skip(reason)
    folder = Path(tempfile.mkdtemp(prefix="referee-pg-"))
    cluster = Cluster(bin_dir, folder)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        with contextlib.suppress(AssertionError, subprocess.SubprocessError):
            cluster.run("pg_ctl", "-D", str(cluster.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)
