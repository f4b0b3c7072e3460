"""`TwixtService.execute` hands each command to the one subject's method marked as its
handler (`commands.handles`), with the command's fields as that method's parameters;
and every button is a command (`commands.of_button`)."""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest

from twixt.service import ButtonKind, TwixtService
from twixt.service import commands as cmd

#: the command the service answers itself: a button's command for one game only
UNWRAPPED = {cmd.ForGame}
KINDS = sorted(set(cmd.command_kinds()) - UNWRAPPED, key=lambda kind: kind.__name__)


def test_every_command_has_one_handler(service: TwixtService):
    assert set(service.handlers.marked) == set(KINDS)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_handlers_parameters_are_its_commands_fields(service: TwixtService, kind):
    parameters = list(inspect.signature(service.handlers(kind)).parameters)
    assert parameters == ["request", *(f.name for f in fields(kind))]


def test_a_command_handled_twice_is_refused():
    class One:
        @cmd.handles(cmd.Status)
        async def status(self, request): ...

    class Other:
        @cmd.handles(cmd.Status)
        async def also(self, request): ...

    with pytest.raises(TypeError, match="Status is handled twice"):
        cmd.handlers_of(One(), Other())


@pytest.mark.parametrize("kind", list(ButtonKind), ids=lambda kind: kind.name)
def test_every_button_is_a_command(kind: ButtonKind):
    asked = cmd.of_button(kind, 7)
    assert isinstance(asked, cmd.ServiceCommand)
    assert 7 in (getattr(asked, f.name) for f in fields(asked))
