"""The run's order (tests/conftest.py): each test it puts first is still there to be put first,
so that a renamed or moved test is not left at its usual place unnoticed."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import LONGEST

ROOT = Path(__file__).parent.parent


def test_each_of_the_longest_tests_names_a_test_of_the_suite() -> None:
    for name in LONGEST:
        file, _, test = name.partition("::")
        path = ROOT / file
        assert path.is_file(), f"{name}: no such file"
        if test:
            found = re.search(rf"^(async )?def {re.escape(test)}\(", path.read_text("utf-8"), re.M)
            assert found, f"{name}: no such test"
