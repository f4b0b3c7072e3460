"""`twixt play` end to end from a script, with a restart in the middle of a game, and
`twixt export` of the result."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from PIL import Image

from twixt.app import table as terminal_cli
from twixt.app.table import open_table
from twixt.service import APOLOGY
from twixt.storage import SqliteStorage
from twixt.storage.ratings import Rating, rate_game

TWIXT = str(Path(sys.executable).with_name("twixt"))


def _twixt(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([TWIXT, *args], cwd=cwd, input=stdin, capture_output=True, text=True,
                          check=False, timeout=120)


def test_a_game_played_in_two_sittings_and_exported(tmp_path: Path):
    first = tmp_path / "first.txt"
    first.write_text("alice: challenge bob size 12 swap no first me\n"
                     "bob: accept\n"
                     "alice: G6\n"
                     "bob: G8\n")
    done = _twixt("play", str(first), "--db", "t.db", "--channel", "den", "--out", "pics",
                  cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "@bob **alice** challenges bob to TwixT (12×12, classic, no swap)" in done.stdout
    assert "@alice **bob** (Black): `G8`" in done.stdout
    pictures = sorted((tmp_path / "pics").glob("den-*.png"))
    assert len(pictures) == 3
    assert Image.open(pictures[-1]).size[0] >= 900

    # a later sitting: the same database and channel go on with the game
    done = _twixt("play", "--db", "t.db", "--channel", "den", "--out", "pics", cwd=tmp_path,
                  stdin="alice: E7 link G6\nbob: K12\nbob: G4\nalice: status\nbob: resign\n"
                        "bob: resign yes\n")
    assert done.returncode == 1  # one line (K12 in Red's border row) was refused
    assert "! bob: K12 is in Red's border row" in done.stdout
    # a typed resign asks first, as the button does; `resign yes` is the confirmation
    assert "(only you see this) Really resign this game?" in done.stdout
    assert "alice (Red) wins — Black resigned." in done.stdout
    assert len(list((tmp_path / "pics").glob("den-*.png"))) == 6

    exported = _twixt("export", "--db", "t.db", "--channel", "den", cwd=tmp_path)
    assert exported.returncode == 0
    assert exported.stdout == ('[Board "12x12"]\n[Rules "classic"]\n[Swap "no"]\n'
                               '[Players "alice, bob"]\nalice: G6\nbob: G8\n'
                               'alice: E7 link G6\nbob: G4\nbob: resign\n')
    t1 = _twixt("export", "--db", "t.db", "--channel", "den", "--format", "t1", cwd=tmp_path)
    assert t1.stdout.splitlines()[-5:] == ["G6", "G8", "E7", "G4", "resign"]


def test_a_team_game_in_the_terminal(tmp_path: Path):
    script = ("alice: team carol vs bob dave first me swap no\n"
              "bob: accept\ncarol: accept\ndave: accept\n"
              "alice: K10; privilege\ncarol: M10\ndave: M14\n")
    done = _twixt("play", "--db", "t.db", cwd=tmp_path, stdin=script)
    assert done.returncode == 0, done.stdout
    assert "carol (Red, seat 3) to move." in done.stdout
    assert "@alice **dave** (Black): `M14`\nalice (Red, seat 1) to move." in done.stdout


def test_bad_lines_and_a_bad_database_get_one_clear_line(tmp_path: Path):
    done = _twixt("play", "--db", "t.db", cwd=tmp_path, stdin="no colon here\nbob: K10\n")
    assert "! line 1: write name: command, like alice: G6" in done.stdout
    assert "! bob: there is no game in this channel" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    done = _twixt("play", "--db", "junk.db", cwd=tmp_path, stdin="")
    assert done.returncode == 2
    assert done.stderr.startswith("twixt: ") and done.stderr.count("\n") == 1
    assert (tmp_path / "junk.db").read_bytes() == b"not a database at all" * 100


def test_export_of_a_channel_without_games(tmp_path: Path):
    _twixt("play", "--db", "t.db", cwd=tmp_path, stdin="alice: help\n")
    done = _twixt("export", "--db", "t.db", "--channel", "empty", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == "twixt: this channel has no games\n"


def test_export_refuses_a_database_that_is_not_there_and_creates_none(tmp_path: Path):
    done = _twixt("export", "--db", "nope.db", "--channel", "den", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2, "twixt: nope.db does not exist (export only reads a database)\n")
    assert list(tmp_path.iterdir()) == []


def test_clocks_in_the_terminal_act_on_a_later_clock(tmp_path: Path):
    start = ("alice: challenge bob size 12 swap no time 1d vacation no\nbob: accept\nalice: G6\n"
             "bob: takeback\nalice: takeback\nbob: accept takeback\nbob: settings dm off\n")
    done = _twixt("play", "--db", "t.db", "--clock", "2026-01-01T12:00", cwd=tmp_path,
                  stdin=start)
    assert "! bob: only the player who made the last turn can ask to take it back" in done.stdout
    assert "alice's `G6` is taken back.\nalice (Red) to move. (1d 0h left)" in done.stdout
    done = _twixt("play", "--db", "t.db", "--clock", "2026-01-01T12:00", cwd=tmp_path,
                  stdin="alice: K6\n")
    # a day later bob's time is up: the table says so once, then alice claims
    later = ["--db", "t.db", "--clock", "2026-01-02T12:30"]
    done = _twixt("play", *later, cwd=tmp_path, stdin="")
    assert done.stdout.startswith("@alice bob's time to move in game 1 is up: alice may claim")
    done = _twixt("play", *later, cwd=tmp_path, stdin="alice: claim\nalice: stats\n")
    assert "is up" not in done.stdout
    assert "alice (Red) wins on time — Black ran out of time." in done.stdout
    assert ("**alice**: 1 game — 1 won, 0 lost, 0 drawn; rating 1662? ±290 (provisional)"
            in done.stdout)


def test_ratings_in_the_terminal_lose_their_mark_and_get_it_back_after_months(tmp_path: Path):
    games = "".join("alice: challenge bob\nbob: accept\nbob: resign yes\n" if n % 2 == 0
                    else "bob: challenge alice\nalice: accept\nalice: resign yes\n"
                    for n in range(14))
    done = _twixt("play", "--db", "t.db", "--clock", "2026-01-01T12:00", cwd=tmp_path,
                  stdin=games + "carol: leaderboard\nalice: stats\n")
    assert done.returncode == 0, done.stdout
    at = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    alice, bob = Rating(), Rating()
    for n in range(14):
        if n % 2 == 0:
            [alice], [bob] = rate_game([alice], [bob], 1.0, at)
        else:
            [bob], [alice] = rate_game([bob], [alice], 1.0, at)
    assert (f"**Leaderboard** (page 1)\n1. bob — {bob.rating:.0f} (7–7–0)\n"
            f"2. alice — {alice.rating:.0f} (7–7–0)\n") in done.stdout
    assert (f"rating {alice.rating:.0f} ±{alice.deviation:.0f} after 14 rated games."
            in done.stdout)
    # a sitting four months later: nobody has played since
    done = _twixt("play", "--db", "t.db", "--clock", "2026-05-01T12:00", cwd=tmp_path,
                  stdin="carol: leaderboard\nalice: stats\n")
    grown = alice.at(datetime(2026, 5, 1, 12, 0, tzinfo=UTC)).deviation
    assert (f"1. bob — {bob.rating:.0f}? (7–7–0)\n2. alice — {alice.rating:.0f}? (7–7–0)\n"
            "? provisional: too few recent games to be sure of the rating") in done.stdout
    assert (f"rating {alice.rating:.0f}? ±{grown:.0f} (provisional) after 14 rated games."
            in done.stdout)


def test_records_in_the_terminal(tmp_path: Path):
    record = Path(__file__).resolve().parents[1] / "rules" / "data" / "game2232217.tsgf"
    script = (f"alice: import {record} bob\nbob: accept\nbob: board\nalice: export\n"
              "alice: replay\nalice: history\nalice: leaderboard\n")
    done = _twixt("play", "--db", "t.db", "--out", "files", cwd=tmp_path, stdin=script)
    assert done.returncode == 0, done.stdout
    assert "game2232217.tsgf: 24x24, pp, 38 moves — slaapgraag (Red) to move." in done.stdout
    assert "from an imported position (38 moves)" in done.stdout
    for name in ("twixt-1.twixt", "twixt-1.tsgf", "twixt-1.T1", "twixt-1.gif"):
        assert (tmp_path / "files" / name).exists()
    assert "No rated games yet." in done.stdout


def test_a_manager_named_on_the_command_line_may_change_the_server_and_abort(tmp_path: Path):
    script = ("alice: challenge bob\nbob: accept\ncarol: server forfeit yes\n"
              "carol: abort\nbob: server\n")
    done = _twixt("play", "--db", "t.db", "--manager", "carol", cwd=tmp_path, stdin=script)
    assert ("Server settings: thread no, expiry 24h, forfeit yes, reminder 24h, vacationdays "
            "14, vacation yes, botgames 5.") in done.stdout
    assert "Game 1 (alice and bob) is aborted by carol; it counts for nobody." in done.stdout


async def test_an_unexpected_error_is_one_line_for_the_player(tmp_path: Path, caplog):
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        out = StringIO()
        table = open_table(storage, "den", tmp_path, out=out)

        async def broken(*_args):
            raise RuntimeError("boom")

        table.service.turns.status = broken  # type: ignore[method-assign]
        assert await table.run(["alice: status"]) == 1
    assert out.getvalue() == f"! alice: {APOLOGY}\n"
    assert "boom" in caplog.text


async def test_a_line_the_table_fails_through_no_fault_of_its_own_is_exit_2(
        tmp_path: Path, monkeypatch, caplog):
    """The table maps what its lines were refused with, not what the refusals say: a line
    refused is exit 1, a database gone under a line (a `FaultError`) exit 2, as a database
    that cannot be opened is."""
    db = tmp_path / "t.db"

    def script(_stream):
        yield from ("alice: challenge bob swap no", "bob: accept", "alice: K10",
                    "bob: K10")  # taken: refused, the player's doing
        db.unlink()
        yield "bob: M12"

    monkeypatch.setattr(terminal_cli, "lines_of", script)
    (tmp_path / "script.txt").write_text("")
    assert await terminal_cli.play(str(db), "den", tmp_path, str(tmp_path / "script.txt")) == 2
    assert "was removed or replaced while the bot was running" in caplog.text


def test_a_database_in_a_missing_folder_is_one_line_and_exit_2(tmp_path: Path):
    for command, refusal in ((["play"], "twixt: the folder no/such does not exist"),
                             (["export", "--channel", "den"], "twixt: no/such/t.db does not")):
        done = _twixt(*command, "--db", "no/such/t.db", cwd=tmp_path, stdin="alice: help\n")
        assert done.returncode == 2
        assert done.stderr.startswith(refusal)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "no").exists()


def test_an_out_that_is_not_a_folder_is_refused_before_any_line(tmp_path: Path):
    (tmp_path / "boards").write_text("a file, not a folder")
    done = _twixt("play", "--db", "t.db", "--out", "boards", cwd=tmp_path,
                  stdin="alice: challenge bob\nbob: accept\n")
    assert (done.returncode, done.stderr) == (2, "twixt: --out boards is not a folder\n")
    assert not (tmp_path / "t.db").exists()


async def test_a_board_that_cannot_be_saved_is_said_and_the_script_goes_on(tmp_path: Path):
    async with await SqliteStorage.open(tmp_path / "t.db") as storage:
        out = StringIO()
        table = open_table(storage, "den", tmp_path / "gone", out=out)
        (tmp_path / "gone").write_text("in the way")  # the folder became a file meanwhile
        refused = await table.run(["alice: challenge bob swap no", "bob: accept",
                                   "alice: K10", "bob: status"])
        assert refused == 0
        assert "  (board not saved:" in out.getvalue()
        assert "Moves: 1" in out.getvalue()


def test_a_clock_far_in_the_future_is_refused_before_anything_is_stored(tmp_path: Path):
    done = _twixt("play", "--db", "t.db", "--clock", "9999-12-01", cwd=tmp_path,
                  stdin="alice: challenge bob time 1d\n")
    assert done.returncode == 2
    assert "'9999-12-01' is not between 2000 and 2100" in done.stderr
    assert not (tmp_path / "t.db").exists()


def test_a_byte_order_mark_and_comments_are_not_part_of_a_line(tmp_path: Path):
    script = tmp_path / "bom.txt"
    script.write_text("alice: challenge bob size 12 swap no # a friendly game\n"
                      "bob: accept\nalice: G6 # my first peg\n", encoding="utf-8-sig")
    done = _twixt("play", str(script), "--db", "t.db", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "**alice** (Red): `G6`" in done.stdout
    assert "\ufeff" not in done.stdout


def test_twixt_check_help_offers_what_check_accepts(tmp_path: Path):
    """`check` reads SQLite files only (a PostgreSQL URL is refused, exit 2): its help must
    not offer a URL, as the shared `--db` help of `play` and `export` does."""
    shown = _twixt("check", "--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "postgresql://" not in shown.stdout
    words = " ".join(shown.stdout.split())
    assert "the SQLite file to check" in words and "amcheck" in words
    assert "running totals" in words and "2 when" in words  # all it checks, every exit code
    refused = _twixt("check", "--db", "postgresql://bot@db.example/twixt", cwd=tmp_path)
    assert refused.returncode == 2 and "reads a SQLite file" in refused.stderr
    assert "postgresql://" in _twixt("play", "--help", cwd=tmp_path).stdout


def test_twixt_check_reads_every_page_and_names_what_is_wrong(tmp_path: Path):
    _twixt("play", "--db", "t.db", cwd=tmp_path, stdin="alice: challenge bob\nbob: accept\n")
    healthy = _twixt("check", "--db", "t.db", cwd=tmp_path)
    assert (healthy.returncode, healthy.stdout) == (0, "t.db: ok\n")
    with closing(sqlite3.connect(tmp_path / "t.db")) as db, db:  # foreign keys off here
        db.execute("INSERT INTO game_seats (game_id, seat, user_id, name) "
                   "VALUES (99, 0, 1, 'ghost')")
    broken = _twixt("check", "--db", "t.db", cwd=tmp_path)
    assert broken.returncode == 1
    assert broken.stdout == "a row of game_seats points to a missing row of games\n"
    missing = _twixt("check", "--db", "none.db", cwd=tmp_path)
    assert (missing.returncode, missing.stderr) == (2, "twixt: none.db does not exist\n")


def test_twixt_check_leaves_nothing_beside_the_database(tmp_path: Path):
    """check changes nothing: not even the `-wal` and `-shm` files SQLite makes for a reader
    of a WAL database."""
    _twixt("play", "--db", "t.db", cwd=tmp_path, stdin="alice: challenge bob\nbob: accept\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    healthy = _twixt("check", "--db", "t.db", cwd=tmp_path)
    assert (healthy.returncode, healthy.stdout) == (0, "t.db: ok\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert not any(name.startswith("t.db-") for name in before)


def test_twixt_check_of_a_database_on_a_read_only_folder(tmp_path: Path):
    """A folder mounted read-only (in a mount namespace of the test's own): check reads the
    database there, which it never writes, rather than say its folder may not be written."""
    if subprocess.run(["unshare", "-rm", "true"], check=False).returncode != 0:
        pytest.skip("no user namespace to mount a folder read-only in")
    (tmp_path / "data").mkdir()
    (tmp_path / "ro").mkdir()
    _twixt("play", "--db", "data/t.db", cwd=tmp_path,
           stdin="alice: challenge bob\nbob: accept\n")
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"mount --bind data ro && mount -o remount,ro,bind ro "
         f"&& {TWIXT} check --db ro/t.db"], cwd=tmp_path, capture_output=True, text=True,
        check=False, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ro/t.db: ok\n", "")


def test_twixt_export_of_a_timed_game_carries_its_time_control(tmp_path: Path):
    # `twixt export` wrote no TimeControl while the bot's export did: one record, two answers
    script = "alice: challenge bob size 12 swap no time 2d\nbob: accept\nalice: G6\n"
    assert _twixt("play", "--db", "t.db", "--channel", "den", cwd=tmp_path,
                  stdin=script).returncode == 0
    exported = _twixt("export", "--db", "t.db", "--channel", "den", cwd=tmp_path)
    assert exported.returncode == 0
    assert '[TimeControl "2d"]\nalice: G6\n' in exported.stdout


def _within_memory(gigabytes: float = 1.5):
    """A child's address space capped, so that a program that reads an endless file whole
    fails at once instead of taking the machine's memory."""
    import resource

    def limit() -> None:
        most = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (most, most))
    return limit


def _twixt_within_memory(*args: str, cwd: Path, stdin: bytes | None = None
                         ) -> subprocess.CompletedProcess:
    done = subprocess.run([TWIXT, *args], cwd=cwd, input=stdin, capture_output=True,
                          check=False, timeout=120, preexec_fn=_within_memory())
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def test_an_import_of_a_big_file_a_device_a_pipe_or_a_name_with_nul_is_one_line_each(
        tmp_path: Path):
    """Read at most the cap and one byte; what is not a regular file (an endless device, a
    named pipe nobody writes to) is refused at once, before it is read; a name the system
    cannot open is refused in one line; and the lines after them are played."""
    (tmp_path / "big.twixt").write_bytes(b"x" * 300_000)
    os.mkfifo(tmp_path / "fifo")
    script = (b"alice: import big.twixt\nalice: import /dev/zero\nalice: import fifo\n"
              b"alice: import a\0b.twixt\nalice: help\n")
    done = _twixt_within_memory("play", "--db", "t.db", cwd=tmp_path, stdin=script)
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == [
        "! alice: big.twixt is larger than 262144 bytes: too big for a game record",
        "! alice: cannot read /dev/zero: not a regular file",
        "! alice: cannot read fifo: not a regular file",
        "! alice: cannot read a\\0b.twixt: a file name cannot hold a NUL character"]
    assert "(only you see this)" in lines[4]  # help, the line after them


def test_an_endless_or_binary_script_is_refused_in_one_line(tmp_path: Path):
    """`twixt play /dev/zero`, and the same on standard input: the first line is over any
    line's length, and the input stops there; a binary file's lines are each refused."""
    for args, stdin in ((["/dev/zero"], None), ([], b"alice: help\n" + b"\0" * 10**6)):
        done = _twixt_within_memory("play", *args, "--db", "t.db", cwd=tmp_path, stdin=stdin)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert done.stdout.splitlines()[-1].startswith("! line ")
        assert done.stdout.splitlines()[-1].endswith(
            "is longer than 4000 characters: the rest of the input is not read")
    (tmp_path / "board.png").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x81 alice: x\n")
    done = _twixt_within_memory("play", "board.png", "--db", "t.db", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.startswith("! line 1: write name: command")


def test_export_reads_the_channel_play_uses_when_none_is_named(tmp_path: Path):
    script = "alice: challenge bob size 12 swap no\nbob: accept\nalice: G6\n"
    assert _twixt("play", "--db", "t.db", cwd=tmp_path, stdin=script).returncode == 0
    exported = _twixt("export", "--db", "t.db", cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.endswith('[Players "alice, bob"]\nalice: G6\n')


def test_plays_help_says_what_its_exit_code_means(tmp_path: Path):
    shown = " ".join(_twixt("play", "--help", cwd=tmp_path).stdout.split())
    assert "0 when every line was taken, 1 when any was refused, 2 when" in shown
