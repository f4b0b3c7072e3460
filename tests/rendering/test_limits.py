"""The counts a picture is drawn from are checked against its bounds in one place."""

from __future__ import annotations

import doctest

from twixt.rendering import limits


def test_the_examples_of_the_bounds_hold():
    assert doctest.testmod(limits).failed == 0
