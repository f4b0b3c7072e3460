"""`twixt NAME --help` describes a subcommand in the words of the function that runs it, so
the text a user reads and the docstring a reader of the code reads are one."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

from twixt import cli
from twixt.cli import engine_commands, render_commands

HANDLERS: dict[str, Callable[..., int]] = {
    "replay": cli._run_replay, "render": render_commands.run_render,
    "think": engine_commands.run_think, "analyze": engine_commands.run_analyze,
    "play": cli._run_play, "check": cli._run_check, "export": cli._run_export,
    "migrate": cli._run_migrate, "web": cli._run_web, "link": cli._run_link}


@pytest.mark.parametrize("name", HANDLERS)
def test_a_subcommands_help_is_its_handlers_docstring(name: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main([name, "--help"])
    assert exit_.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    described = " ".join((inspect.getdoc(HANDLERS[name]) or "").split())
    assert described and described in shown
