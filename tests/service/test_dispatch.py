"""`TwixtService.execute` hands each command to the one subject's method marked as its
handler (`commands.handles`), in the subject `service.HANDLED_BY` names, with the command's
fields as that method's parameters; `commands.OFFERED` names each subject module's names;
and every button is a command (`commands.of_button`). The tables let a process import a
subject when first used: these hold them to what the modules declare."""

from __future__ import annotations

import importlib
import inspect
from collections import defaultdict
from dataclasses import fields

import pytest

from twixt.service import ButtonKind, TwixtService
from twixt.service import commands as cmd
from twixt.service.service import HANDLED_BY

#: the command the service answers itself: a button's command for one game only
UNWRAPPED = {cmd.ForGame}
KINDS = sorted(set(cmd.command_kinds()) - UNWRAPPED, key=lambda kind: kind.__name__)


def _marked(service: TwixtService) -> dict[type, list[str]]:
    """Every method of the service's parts (each subject, built) marked as a handler: each
    kind → the parts whose method does it."""
    service.turns, service.views  # noqa: B018 (every subject built)
    found: dict[type, list[str]] = defaultdict(list)
    for name, part in vars(service).items():
        for attribute in dir(type(part)):
            for kind in cmd.handled_by(getattr(type(part), attribute, None)):
                found[kind].append(name)
    return found


def test_every_command_has_one_handler_in_the_subject_the_table_names(service: TwixtService):
    assert sorted(HANDLED_BY) == sorted(kind.__name__ for kind in KINDS)
    assert dict(_marked(service)) == {kind: [HANDLED_BY[kind.__name__]] for kind in KINDS}


def test_the_check_finds_a_command_handled_twice(service: TwixtService, monkeypatch):
    class Other:
        @cmd.handles(cmd.Status)
        async def also(self, request): ...

    service.turns  # noqa: B018 (every subject built)
    monkeypatch.setattr(service, "other", Other(), raising=False)
    assert _marked(service)[cmd.Status] == ["turns", "other"]


def test_each_subject_module_offers_what_the_table_says():
    for module, names in cmd.OFFERED.items():
        assert tuple(importlib.import_module(f"{cmd.__name__}.{module}").__all__) == names


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_handlers_parameters_are_its_commands_fields(service: TwixtService, kind):
    parameters = list(inspect.signature(service._handler(kind)).parameters)
    assert parameters == ["request", *(f.name for f in fields(kind))]


def test_a_command_no_subject_marks_has_no_handler():
    class Nothing:
        async def status(self, request): ...

    with pytest.raises(KeyError, match="Status"):
        cmd.handler_name(Nothing, cmd.Status)


@pytest.mark.parametrize("kind", list(ButtonKind), ids=lambda kind: kind.name)
def test_every_button_is_a_command(kind: ButtonKind):
    asked = cmd.of_button(kind, 7)
    assert isinstance(asked, cmd.ServiceCommand)
    assert 7 in (getattr(asked, f.name) for f in fields(asked))
