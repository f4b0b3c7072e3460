"""A real, throw-away PostgreSQL server for the tests and the benchmarks.

`PgServer.create()` runs `initdb` into a fresh temporary folder and starts `postgres` on a
unix socket in that folder (no TCP port, so nothing else on the machine can reach it).
The server refuses to run as root, so as root it runs as the `postgres` system user, who
owns the folder. `kill()` SIGKILLs the server and every backend (its process group), as a
crash would; `start()` starts it again on the same data, which then recovers from its WAL.

The binaries are found on PATH or under /usr/lib/postgresql/*/bin; without them the tests
fail with one line saying how to install them (never a silent skip).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

INSTALL_HINT = ("PostgreSQL's server programs (initdb, postgres) were not found on PATH or "
                "under /usr/lib/postgresql/*/bin: install them, e.g. `apt-get install "
                "postgresql` (Debian/Ubuntu) or `brew install postgresql` (macOS)")
#: the users the server may run as when we are root (initdb and postgres refuse root)
SERVER_USERS = ("postgres", "nobody")


class PostgresMissing(RuntimeError):
    """No PostgreSQL server programs on this machine."""


def find_binaries() -> Path:
    """The folder holding initdb and postgres: PATH first, then Debian's versioned folders."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("postgres"):
        return Path(os.path.realpath(on_path)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda f: int(Path(f).parent.name) if Path(f).parent.name.isdigit()
                         else 0, reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    raise PostgresMissing(INSTALL_HINT)


def _server_user() -> pwd.struct_passwd | None:
    """Who runs the server: nobody else unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in SERVER_USERS:
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresMissing("running as root, the server needs an unprivileged user to run as: "
                          "`useradd --system postgres`")


@dataclass
class PgServer:
    """One throw-away server: `dsn(name)` is how to reach its database `name`."""

    folder: Path
    binaries: Path
    user: pwd.struct_passwd | None
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @classmethod
    def create(cls, parent: Path | None = None) -> PgServer:
        """A new server whose folder is made in `parent` (default: the temporary folder)."""
        binaries = find_binaries()
        user = _server_user()
        folder = Path(tempfile.mkdtemp(prefix="twixt-pg-", dir=parent))
        if user is not None:
            os.chown(folder, user.pw_uid, user.pw_gid)
        server = cls(folder, binaries, user)
        # --no-sync: initdb's files need not reach the disk before it returns (about 4 s of
        # fsyncs by the clock a server): the folder is thrown away, and what the server
        # itself commits is still fsynced (`start`); a SIGKILLed server (`kill`) loses only
        # its processes, never the files the kernel holds
        server._run([str(binaries / "initdb"), "--pgdata", str(server.data),
                     "--username", "postgres", "--auth", "trust", "--encoding", "UTF8",
                     "--locale", "C", "--no-instructions", "--no-sync"])
        server.start()
        return server

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}"

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(command, capture_output=True, check=False, **self._as_user())
        if done.returncode:
            raise RuntimeError(f"{command[0]} failed: {done.stderr.decode(errors='replace')}")

    def _as_user(self) -> dict[str, Any]:
        if self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    def start(self) -> None:
        """Start (or restart, after `kill`) the server and wait until it takes connections."""
        log = (self.folder / "server.log").open("ab")
        # its own process group, so that `kill` reaches the backends as well
        self.process = subprocess.Popen(
            [str(self.binaries / "postgres"), "-D", str(self.data),
             "-c", "listen_addresses=", "-c", f"unix_socket_directories={self.folder}",
             "-c", "max_connections=300", "-c", "shared_buffers=64MB",
             "-c", "fsync=on", "-c", "synchronous_commit=on"],
            stdout=log, stderr=log, start_new_session=True, **self._as_user())
        log.close()
        deadline = time.monotonic() + 30
        ready = [str(self.binaries / "pg_isready"), "-q", "-h", str(self.folder), "-U",
                 "postgres"]
        while subprocess.run(ready, check=False).returncode != 0:
            if self.process.poll() is not None or time.monotonic() > deadline:
                tail = (self.folder / "server.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the PostgreSQL server did not start:\n{tail}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL the server and all its backends at once, as a crash would."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        # orphaned backends notice and exit; wait until none holds the shared memory
        deadline = time.monotonic() + 10
        while _group_alive(self.process.pid) and time.monotonic() < deadline:
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # immediate shutdown: it is thrown away
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


async def new_database(server: PgServer, template: str = "template0") -> str:
    """The URL of a new database on `server`, a copy of `template`."""
    import asyncpg

    name = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server.dsn())
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
    finally:
        await admin.close()
    return server.dsn(name)
