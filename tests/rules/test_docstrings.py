"""The examples in the docstrings of `Game` and `Turn` stay true, and none of their public
members goes without a docstring (nor a method without an example)."""

from __future__ import annotations

import doctest
import inspect
from collections.abc import Callable, Iterator
from functools import cached_property
from typing import Any

import pytest

import twixt.rules.errors
import twixt.rules.game
import twixt.rules.numbers
from twixt.rules.game import Game, Turn


def _public_members(cls: type) -> Iterator[tuple[str, Callable[..., Any], bool]]:
    """(qualified name, function, whether it is a method) of each public member of `cls`.

    A game is made by its players' code; a turn only by the game, so its `__init__` is not
    public."""
    for name, value in vars(cls).items():
        if name.startswith("_") and not (name == "__init__" and cls is Game):
            continue
        if isinstance(value, cached_property):
            yield f"{cls.__name__}.{name}", value.func, False
        elif isinstance(value, property) and value.fget is not None:
            yield f"{cls.__name__}.{name}", value.fget, False
        elif inspect.isfunction(value):
            yield f"{cls.__name__}.{name}", value, True


MEMBERS = [member for cls in (Game, Turn) for member in _public_members(cls)]


def _examples() -> list[doctest.DocTest]:
    # doctest's own finder skips cached_property (Turn's views), so the docstrings are
    # gathered here; they run with the module's names, as `python -m doctest` would
    parser = doctest.DocTestParser()
    owners: list[tuple[str, Any]] = [(cls.__name__, cls) for cls in (Game, Turn)]
    owners += [(name, function) for name, function, _method in MEMBERS]
    return [parser.get_doctest(owner.__doc__, dict(vars(twixt.rules.game)), name,
                               twixt.rules.game.__file__, inspect.getsourcelines(owner)[1] - 1)
            for name, owner in owners if owner.__doc__ and ">>>" in owner.__doc__]


EXAMPLES = _examples()


@pytest.mark.parametrize(("name", "function", "is_method"), MEMBERS,
                         ids=[name for name, _f, _m in MEMBERS])
def test_every_public_member_says_what_it_is_for(name: str, function: Callable[..., Any],
                                                 is_method: bool) -> None:
    doc = function.__doc__
    assert doc, f"{name} has no docstring"
    if is_method:
        assert ">>>" in doc, f"{name} has no example"


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.name for example in EXAMPLES])
def test_the_example_is_true(example: doctest.DocTest) -> None:
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(example, out=report.append)
    assert result.failed == 0, "".join(report)


@pytest.mark.parametrize("module", [twixt.rules.errors, twixt.rules.numbers],
                         ids=lambda m: m.__name__)
def test_the_examples_of_the_small_modules_are_true(module: Any) -> None:
    assert doctest.testmod(module).failed == 0
