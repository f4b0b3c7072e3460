"""Charged clock time and deadlines over vacations and weekends, against a brute-force oracle
that looks at every hour; and the time controls they serve."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twixt.service import MalformedError
from twixt.service.pure.clock.pauses import Pauses, charged, moment_after
from twixt.service.pure.clock.timecontrol import TimeControl, parse_time_control, time_control_of

H = timedelta(hours=1)
D = timedelta(days=1)
#: a Wednesday at midnight, UTC: hours from here keep every weekend on the grid
BASE = datetime(2026, 1, 7, tzinfo=UTC)


def at(hour: int) -> datetime:
    return BASE + hour * H


def paused(hour: int, pauses: Pauses) -> bool:
    """The oracle: is the clock stopped during this hour?"""
    moment = at(hour)
    return (any(start <= moment < end for start, end in pauses.vacations)
            or (pauses.weekends_off and moment.weekday() >= 5))


def running_hours(start: int, end: int, pauses: Pauses) -> int:
    return sum(not paused(hour, pauses) for hour in range(start, end))


vacations = st.lists(st.tuples(st.integers(0, 900), st.integers(0, 200)), max_size=6).map(
    lambda spans: tuple((at(a), at(a + length)) for a, length in spans))
pause_sets = st.builds(Pauses, vacations, st.booleans())


@settings(max_examples=200, deadline=None)
@given(pause_sets, st.integers(0, 400), st.integers(0, 600))
def test_charged_time_is_the_hours_the_clock_runs(pauses, start, length):
    assert charged(at(start), at(start + length), pauses) == \
        running_hours(start, start + length, pauses) * H


@settings(max_examples=200, deadline=None)
@given(pause_sets, st.integers(0, 400), st.integers(0, 600), st.integers(0, 300))
def test_charged_time_stops_at_its_most(pauses, start, length, most):
    expected = min(running_hours(start, start + length, pauses), most) * H
    assert charged(at(start), at(start + length), pauses, most=most * H) == expected


@settings(max_examples=200, deadline=None)
@given(pause_sets, st.integers(0, 400), st.integers(0, 300))
def test_a_deadline_is_the_last_moment_before_the_time_is_over(pauses, start, amount):
    due = moment_after(at(start), amount * H, pauses)
    assert charged(at(start), due, pauses) == amount * H
    # the hour after it runs: a pause that begins just then would have delayed it
    assert not paused(round((due - BASE) / H), pauses)


@settings(max_examples=100, deadline=None)
@given(pause_sets, st.integers(0, 900))
def test_the_pause_covering_a_moment_is_the_oracle_s(pauses, hour):
    covering = pauses.covering(at(hour))
    assert (covering is not None) == paused(hour, pauses)
    if covering is not None:
        end = round((covering[1] - BASE) / H)
        assert not paused(end, pauses) and all(paused(h, pauses) for h in range(hour, end))


def test_a_weekend_off_moves_a_deadline_past_it():
    friday_noon = datetime(2026, 1, 2, 12, tzinfo=UTC)
    assert moment_after(friday_noon, D, Pauses(weekends_off=True)) == friday_noon + 3 * D


def test_a_pause_that_begins_as_the_time_runs_out_delays_the_deadline():
    day = (at(24), at(48))
    assert moment_after(at(0), D, Pauses((day,))) == at(48)
    assert moment_after(at(0), D - H, Pauses((day,))) == at(23)


def test_a_long_span_costs_only_what_it_can_matter_for():
    ten_years = at(0) + 3650 * D
    assert charged(at(0), ten_years, Pauses(weekends_off=True), most=2 * D) == 2 * D


@pytest.mark.parametrize("typed, stored, control", [
    ("3d", "3d", TimeControl(3 * D)),
    ("1d12h", "1d12h", TimeControl(D + 12 * H)),
    ("10d+36h", "10d+36h", TimeControl(10 * D, 36 * H)),
    ("10d + 36h", "10d+36h", TimeControl(10 * D, 36 * H)),
    ("10 days+36 hours", "10d+36h", TimeControl(10 * D, 36 * H)),
    ("2d+0h", "2d+0h", TimeControl(2 * D, timedelta(0))),
])
def test_time_controls_as_typed(typed, stored, control):
    assert parse_time_control(typed) == stored
    assert time_control_of(stored) == control


@pytest.mark.parametrize("typed, refusal", [
    ("10d+", "or a bank like 10d+36h, not “10d+”"),
    ("1d+1h+1h", "or a bank like 10d+36h"),
    ("+1h", "or a bank like 10d+36h"),
    ("61d+1h", "a bank starts with 1h to 60d"),
    ("30m+1m", "a bank starts with 1h to 60d"),
    ("1d+2d", "a bank's bonus is at most its start"),
])
def test_bad_banks_are_refused(typed, refusal):
    with pytest.raises(MalformedError, match=re.escape(refusal)):
        parse_time_control(typed)


def test_a_bank_gains_its_bonus_up_to_its_start():
    bank = TimeControl(10 * D, 36 * H)
    assert bank.after_move(9 * D) == 10 * D
    assert bank.after_move(2 * D) == 3 * D + 12 * H
    assert bank.is_bank and not TimeControl(3 * D).is_bank
