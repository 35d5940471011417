"""A throwaway PostgreSQL cluster for the tests: ``initdb`` + ``pg_ctl`` in a temporary
folder, listening only on a unix socket in that folder (nothing on the network).

The binaries are Debian's (``/usr/lib/postgresql/<version>/bin``; ``apt-get install
postgresql``, which ``.ci/run`` does) or ``initdb`` on PATH. Without them the tests
that need a server are skipped with the reason; under ``CI`` they fail instead.
``initdb`` refuses to run as root: as root, the folder belongs to the ``postgres``
user and the binaries run as that user (``runuser``).

The cluster asks for a password (scram-sha-256), so a wrong one can be tested; each
test gets a database of its own (:meth:`Cluster.create_database`).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

USER = "dominobot"
PASSWORD = "dominobot-test"


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (the newest Debian version), or None."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return None if initdb is None else Path(initdb).parent


def unavailable(reason: str) -> None:
    """Skip the test with ``reason``, or fail it under ``CI`` (where it must run)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the PostgreSQL tests must run)")
    pytest.skip(reason)


class Cluster:
    """One PostgreSQL server in a temporary folder, on a unix socket there."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.as_postgres = os.geteuid() == 0
        # short: a unix socket's path is limited to about 100 characters
        self.folder = Path(tempfile.mkdtemp(prefix="dominobot-pg-"))
        self.data = self.folder / "data"
        (self.folder / "owner").write_text(str(os.getpid()))
        self._names = itertools.count(1)
        if self.as_postgres:
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        password_file = self.folder / "password"
        password_file.write_text(PASSWORD + "\n")
        if self.as_postgres:
            os.chown(password_file, owner.pw_uid, owner.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            "-A",
            "scram-sha-256",
            f"--pwfile={password_file}",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c max_connections=200"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@/{database}?host={self.folder}"

    async def create_database(self) -> str:
        """A new, empty database; its URL."""
        import asyncpg  # type: ignore[import-untyped]

        name = f"test_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        import asyncpg

        name = urlsplit(url).path.lstrip("/")
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await conn.close()


def remove_stale(bindir: Path) -> None:
    """Stop and remove the clusters of test runs that were killed (their finalizers never
    ran): the ``owner`` process is gone."""
    for folder in Path(tempfile.gettempdir()).glob("dominobot-pg-*"):
        try:
            owner = int((folder / "owner").read_text())
            os.kill(owner, 0)
            continue  # its run is still going
        except ProcessLookupError:
            pass
        except (OSError, ValueError):
            continue  # not ours to judge
        if (folder / "data" / "postmaster.pid").exists():
            command = [
                str(bindir / "pg_ctl"),
                "-D",
                str(folder / "data"),
                "-m",
                "immediate",
                "stop",
            ]
            if os.geteuid() == 0:
                command = ["runuser", "-u", "postgres", "--", *command]
            subprocess.run(command, capture_output=True, timeout=60, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def start_cluster() -> Cluster:
    """A started cluster, or the test skipped (failed under CI) with the reason."""
    bindir = binaries()
    if bindir is None:
        unavailable("PostgreSQL is not installed (apt-get install postgresql): no initdb")
        raise AssertionError("unreachable")
    remove_stale(bindir)
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        unavailable("asyncpg is not installed (pip install -e .)")
    cluster = Cluster(bindir)
    try:
        cluster.start()
    except BaseException:
        cluster.remove()
        raise
    return cluster
