"""What a call is refused with, for the tests that hold a table of bad input and the one line
each must be refused with (rules, records, the router): the raising and the reading of the
message written once."""

from __future__ import annotations

from collections.abc import Callable

import pytest


def refusal(error: type[Exception], call: Callable[..., object], *args: object) -> str:
    """The message `call(*args)` is refused with; the test fails unless it raises `error`."""
    with pytest.raises(error) as raised:
        call(*args)
    return str(raised.value)
