"""A bank and a vacation at the terminal table, over four sittings of `twixt play` on one
database with a later `--clock` each time: what a channel would read, restarts included."""

from __future__ import annotations

from pathlib import Path

from tests.terminal.test_table import _twixt


def test_a_bank_a_vacation_and_an_automatic_day_at_the_table(tmp_path: Path):
    def sitting(clock: str, lines: str) -> str:
        done = _twixt("play", "--db", "t.db", "--clock", clock, cwd=tmp_path, stdin=lines)
        assert "Traceback" not in done.stdout + done.stderr
        return done.stdout

    first = sitting("2026-01-01T12:00",
                    "alice: challenge bob size 12 swap no time 2d+12h\nbob: accept\n"
                    "alice: G6\nbob: vacation 3d\nalice: status\n")
    assert "(12×12, classic, no swap, bank 2d+12h)" in first
    assert ("bob is on vacation until 2026-01-04 12:00 UTC: their clocks stop in this "
            "server's games that allow vacation. 11 days left this year.") in first
    assert ("bob (Black) to move. (2d 0h left, on vacation until 2026-01-04 12:00 UTC)\n"
            "alice: 2d 0h in the bank\n"
            "bob: 2d 0h in the bank, on vacation until 2026-01-04 12:00 UTC") in first

    second = sitting("2026-01-04T13:00", "alice: status\n")
    assert second.startswith("**Game 1**")  # nothing was due: the vacation stopped the clock
    assert "bob (Black) to move. (1d 23h left)" in second

    third = sitting("2026-01-06T12:30", "alice: claim\nbob: vacation\n")
    assert third.startswith(
        "@bob bob's time to move in game 1 ran out: a vacation day is used, so the clock "
        "stands still until 2026-01-07 12:00 UTC. 10 days left this year.\n")
    assert ("! alice: bob is on vacation until 2026-01-07 12:00 UTC: their time is not up"
            in third)
    assert ("(only you see this) You have 10 vacation days left this year (of 14). You are "
            "on vacation until 2026-01-07 12:00 UTC.") in third

    fourth = sitting("2026-01-06T13:00", "bob: G8\nalice: status\n")
    assert "ran out" not in fourth  # announced once, restarts included
    # bob used his whole bank; his move added the bonus
    assert "alice (Red) to move. (2d 0h left)\nalice: 2d 0h in the bank\n" \
           "bob: 12h 0m in the bank" in fourth
