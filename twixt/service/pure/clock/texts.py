"""What a clock says: the time left to the player to move (after each turn, in `status`, on
the board's caption), each player's bank, and who is on vacation until when.

Moments are written as UTC in figures (`2026-01-05 12:00 UTC`): the bot knows no one's time
zone, and figures read the same in every language.
"""

from __future__ import annotations

from datetime import UTC, datetime

from twixt.language import Message, message
from twixt.service.pure.clock.banks import TurnClock
from twixt.service.pure.clock.timecontrol import describe_span
from twixt.storage import StoredGame


def moment_text(moment: datetime) -> str:
    """A moment as `2026-01-05 12:00 UTC`."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def clock_words(turn_clock: TurnClock, now: datetime) -> Message:
    """`2d 3h left` for the player to move, and why their clock stands still, if it does:
    `2d 3h left, on vacation until …` or `… weekend off until …`."""
    left = describe_span(turn_clock.left_at(now))
    pause = turn_clock.own.covering(now)
    if pause is None:
        return message("{time} left", time=left)
    if turn_clock.own.vacation_at(now):
        return message("{time} left, on vacation until {moment}", time=left,
                       moment=moment_text(pause[1]))
    return message("{time} left, weekend off until {moment}", time=left,
                   moment=moment_text(pause[1]))


def seat_lines(stored: StoredGame, turn_clock: TurnClock, now: datetime) -> list[Message]:
    """For `status`: each player's bank in a bank game, and each player on vacation (with
    when their clock runs again)."""
    lines = []
    for seat in stored.seats:
        bank = turn_clock.bank_of(seat.number, now)
        pauses = turn_clock.pauses[seat.number]
        pause = pauses.covering(now) if pauses.vacation_at(now) else None
        until = None if pause is None else moment_text(pause[1])
        if bank is not None and until is not None:
            lines.append(message("{name}: {time} in the bank, on vacation until {moment}",
                                 name=seat.name, time=describe_span(bank), moment=until))
        elif bank is not None:
            lines.append(message("{name}: {time} in the bank", name=seat.name,
                                 time=describe_span(bank)))
        elif until is not None:
            lines.append(message("{name} is on vacation until {moment}", name=seat.name,
                                 moment=until))
    return lines
