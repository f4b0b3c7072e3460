"""`TwixtService.execute` hands each command to the subject that does it, with the command's
fields as that subject's parameters, in order (`service._SUBJECTS`); and every button is a
command (`commands.of_button`)."""

from __future__ import annotations

import inspect
import typing
from dataclasses import fields

import pytest

from twixt.service import ButtonKind, TwixtService
from twixt.service import commands as cmd
from twixt.service.service import _SUBJECTS

#: the commands `execute` matches on by their values rather than through the table
MATCHED = {cmd.AnswerChallenge, cmd.TournamentAction, cmd.ForGame}


def test_every_command_has_one_subject():
    every = set(typing.get_args(cmd.ServiceCommand))
    assert set(_SUBJECTS) | MATCHED == every
    assert not set(_SUBJECTS) & MATCHED


@pytest.mark.parametrize("kind", sorted(_SUBJECTS, key=lambda kind: kind.__name__),
                         ids=lambda kind: kind.__name__)
def test_a_subjects_parameters_are_its_commands_fields(service: TwixtService, kind):
    method = _SUBJECTS[kind](service)
    parameters = list(inspect.signature(method).parameters)
    assert parameters == ["request", *(f.name for f in fields(kind))]


@pytest.mark.parametrize("kind", list(ButtonKind), ids=lambda kind: kind.name)
def test_every_button_is_a_command(kind: ButtonKind):
    asked = cmd.of_button(kind, 7)
    assert isinstance(asked, typing.get_args(cmd.ServiceCommand))
    assert 7 in (getattr(asked, f.name) for f in fields(asked))
