"""The database failing under the bot: a file that may not be written, a full disk, a file
removed while the bot runs. Each is named in one line for what it is, and nothing is
acknowledged that is not stored."""

from __future__ import annotations

import contextlib
import logging
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes import Clock
from tests.service import engines as engines
from tests.service.engine_helpers import engine_service
from tests.service.helpers import start_game
from tests.service.people import ALICE, asking
from tests.typed import enter
from twixt.rules import parse_command
from twixt.service import TwixtService, build_options
from twixt.service import commands as cmd
from twixt.service.desk.engine_seats import THE_ENGINE_PLAYER
from twixt.service.service import answer_safely
from twixt.storage import DatabaseError, DatabaseFault, SqliteStorage

pytestmark = pytest.mark.sqlite_only


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """`path` may not be written, as for an unprivileged bot: its mode, or for root (whom a
    mode does not stop) the immutable attribute."""
    path.chmod(0o444)
    immutable = False
    if os.access(path, os.W_OK):
        immutable = subprocess.run(["chattr", "+i", str(path)], check=False,
                                   capture_output=True).returncode == 0
        if not immutable:
            path.chmod(0o644)
            pytest.skip("cannot make a file read-only here: root without chattr")
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o644)


@pytest.fixture
async def made(db_path: Path) -> Path:
    """A healthy database, closed."""
    await (await SqliteStorage.open(db_path)).close()
    return db_path


async def test_a_read_only_file_is_refused_at_start_in_one_line(made):
    with read_only(made), pytest.raises(DatabaseError) as refused:
        await SqliteStorage.open(made)
    assert str(refused.value) == (f"{made} may not be written: check its permissions; it was "
                                  "left untouched")
    assert refused.value.fault is DatabaseFault.READ_ONLY


async def test_the_table_on_a_read_only_file_exits_2_with_one_line(made):
    with read_only(made):
        done = subprocess.run([sys.executable, "-m", "twixt.cli", "play", "--db", str(made)],
                              input="alice: challenge bob\n", capture_output=True, text=True,
                              check=False, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"twixt: {made} may not be written: check its "
                                        "permissions; it was left untouched"]


# --- while the bot runs: one line for the player, one line in the log, nothing stored -----

@contextlib.contextmanager
def immutable(*paths: Path) -> Iterator[None]:
    """Files that may no longer be written even through the bot's open handles (a mode
    stops only new ones): the immutable attribute, which takes root."""
    if subprocess.run(["chattr", "+i", *map(str, paths)], check=False,
                      capture_output=True).returncode != 0:
        pytest.skip("chattr +i needs root (CAP_LINUX_IMMUTABLE)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "2m") -> Iterator[Path]:
    """A real file system of `size` at `folder` (a tmpfs, which takes root)."""
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                      check=False, capture_output=True).returncode != 0:
        pytest.skip("mounting a small file system needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """Take every free byte of `folder`'s file system; the filler, to free it again."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), filler.open("wb", buffering=0) as out:
        while True:
            out.write(b"\0" * 4096)
    return filler


async def started(path: Path) -> tuple[SqliteStorage, TwixtService]:
    store = await SqliteStorage.open(path)
    service = TwixtService(store, clock=Clock(), rng=random.Random(1))
    await start_game(service, swap="no")
    return store, service


async def move(service: TwixtService, text: str = "K10") -> str:
    return (await answer_safely(enter(service, asking(ALICE), text), {"line": text})).text


def refused_in_one_line(caplog: pytest.LogCaptureFixture, why: str) -> None:
    [record] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert record.levelno == logging.ERROR and record.exc_info is None
    assert why in record.getMessage()


async def test_a_move_on_a_full_disk_is_refused_in_one_line_and_stored_once_there_is_room(
        tmp_path, caplog):
    with small_disk(tmp_path / "disk") as disk:
        store, service = await started(disk / "twixt.db")
        try:
            filler = fill(disk)
            said = await move(service)
            assert said == ("The bot cannot store anything just now (its disk is full); "
                            "nothing was changed. Please tell whoever runs the bot.")
            refused_in_one_line(caplog, "cannot grow: the disk is full")
            filler.unlink()
            assert "K10" in await move(service)  # the game was left as it was
        finally:
            await store.close()


async def test_a_full_disk_at_start_is_named_not_called_corrupt(tmp_path):
    with small_disk(tmp_path / "disk", "64k") as disk:
        path = disk / "twixt.db"
        fill(disk)
        with pytest.raises(DatabaseError) as refused:
            await SqliteStorage.open(path)
    assert refused.value.fault is DatabaseFault.FULL
    assert "the disk is full" in str(refused.value) and "corrupt" not in str(refused.value)


async def test_a_move_on_a_file_made_read_only_under_the_bot_is_refused_in_one_line(
        db_path, caplog):
    store, service = await started(db_path)
    try:
        wal = db_path.with_name(db_path.name + "-wal")
        with immutable(db_path, wal):
            said = await move(service)
        assert "(its database may not be written)" in said
        refused_in_one_line(caplog, "may not be written")
    finally:
        await store.close()


async def test_a_file_removed_under_the_bot_takes_no_more_moves(db_path, caplog):
    store, service = await started(db_path)
    try:
        db_path.unlink()
        said = await move(service)
        assert "(its database file was removed)" in said
        refused_in_one_line(caplog, "was removed or replaced while the bot was running")
        db_path.write_bytes(b"")  # another file in its place is not ours either
        assert "(its database file was removed)" in await move(service)
    finally:
        await store.close()


async def test_the_bots_move_on_a_removed_file_is_logged_in_one_line(db_path, caplog):
    store = await SqliteStorage.open(db_path)
    try:
        async with engine_service(store, engines.broken) as (service, _said):
            await service.execute(asking(ALICE), cmd.Challenge(
                THE_ENGINE_PLAYER, build_options(size="8", swap="no")))
            await service.engine_player.idle()
            # the bot's search never answers: the process went down
            await service.execute(asking(ALICE), cmd.Move(parse_command("D4")))
            await service.engine_player.idle()
        caplog.clear()  # the broken search's own traceback
        db_path.unlink()
        async with engine_service(store) as (service, said):  # the bot starts again
            await service.tick()
            await service.engine_player.idle()
        assert said.replies == []
        [record] = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert record.exc_info is None and record.getMessage().startswith(
            "the bot failed in a game: ") and "was removed or replaced" in record.getMessage()
    finally:
        await store.close()
