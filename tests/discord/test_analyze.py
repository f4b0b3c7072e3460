"""`/twixt-records analyze`: a finished game's curve through the slash command, the real
service, database and engine process pool; a game in play is refused in one line the asker alone
sees; the game's channel shows the bot typing while the analysis runs."""

import re
from collections.abc import AsyncIterator
from unittest.mock import MagicMock

import discord
import pytest

from tests.discord.helpers import run, start_game
from tests.discord.people import ALICE, BOB, CHANNEL, EVE, text_channel
from tests.discord.reading import filenames, only, sent, words
from twixt.discord import respond
from twixt.service.cases import analysis as analysis_case
from twixt.service.desk.engine_pool import EnginePool

#: Red (alice) connects on a 6×6 board with her fourth peg
RED_CONNECTS = ["C1", "A3", "D3", "F3", "C5", "A5", "E6"]


@pytest.fixture
async def pool(client) -> AsyncIterator[EnginePool]:
    engines = client.service.desk.engine_pool = EnginePool(workers=1)
    yield engines
    await engines.close()


@pytest.fixture
def answered_at_once(monkeypatch) -> None:
    """However long the analysis takes (its engine process spawned cold, on a machine whose
    cores the other tests share), the answer is the command's first message: neither a
    "thinking…" (`respond.DEFER_AFTER_SECONDS`) nor a progress note comes before it. The
    tests that take this are about the answer; waiting has tests of its own."""
    monkeypatch.setattr(respond, "DEFER_AFTER_SECONDS", 3600.0)
    monkeypatch.setattr(analysis_case, "PROGRESS_AFTER", 3600.0)


async def play_to_the_end(client, slash) -> None:
    await start_game(client, slash, size="6", rules="pp", swap="no")
    for number, move in enumerate(RED_CONNECTS):
        await run(client, slash, "move", BOB if number % 2 else ALICE, command=move)


async def test_anyone_here_gets_the_curve_of_the_finished_game(client, slash, pool,
                                                               answered_at_once):
    await play_to_the_end(client, slash)
    reply = only(await run(client, slash, "analyze", EVE))
    assert reply["ephemeral"] is False
    assert words(reply).startswith("Game 1, 7 moves: the biggest swings")
    assert re.search(r"^1\. move \d+, (Red|Black) `[^`]+`: Red \d+% → \d+% "
                     r"\(engine: `[^`]+`, Red \d+%\)$",
                     words(reply), re.MULTILINE)
    assert filenames(reply) == ["twixt-1-analysis.png"]
    assert reply["files"][0].fp.read()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def told_at_once(monkeypatch) -> None:
    """Every move the analysis reports is told: no wait before the first, none between."""
    monkeypatch.setattr(analysis_case, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(analysis_case, "PROGRESS_EVERY", 0.0)


def answer_steps(mock: MagicMock) -> list[str]:
    """What the interaction's answer went through, in order."""
    steps = {"response.defer": "defer", "edit_original_response": "edit",
             "delete_original_response": "delete", "followup.send": "answer",
             "response.send_message": "answer"}
    return [steps[name] for name, _, _ in mock.mock_calls if name in steps]


def progress_notes(mock: MagicMock) -> list[str]:
    """The notes of how far the work has come that the deferred answer was edited to (an
    answer filling it in carries more than its text)."""
    return [words(call.kwargs) for call in mock.edit_original_response.await_args_list
            if set(call.kwargs) == {"content"}]


async def test_a_long_analysis_shows_its_progress_in_the_deferred_answer(client, slash, pool,
                                                                         told_at_once):
    await play_to_the_end(client, slash)
    asked = await run(client, slash, "analyze", EVE)
    notes = progress_notes(asked)
    assert notes, "no progress was shown"
    assert all(re.fullmatch(r"Analysing: move [1-7] of 7…", note) for note in notes)
    # the private "thinking…" note goes once the public answer is there, as a message of
    # its own (removed once, as any thinking an answer of other visibility replaces)
    assert answer_steps(asked) == ["defer", *["edit"] * len(notes), "delete", "answer"]
    reply = sent(asked)[-1]
    assert reply["ephemeral"] is False and words(reply).startswith("Game 1, 7 moves")


async def test_the_progress_is_told_in_the_askers_language_and_goes_with_a_private_answer(
        client, slash, pool, told_at_once):
    await play_to_the_end(client, slash)
    asked = await run(client, slash, "analyze", ALICE, game=1, channel_id=CHANNEL + 1,
                      locale=discord.Locale.german)
    notes = progress_notes(asked)
    assert notes and all(re.fullmatch(r"Analyse: Zug [1-7] von 7…", note) for note in notes)
    # the private answer fills in the private note, in place
    assert answer_steps(asked) == ["defer", *["edit"] * len(notes), "edit"]
    assert words(sent(asked)[-1]).startswith("Partie 1")


async def test_an_analysis_done_before_the_progress_is_due_shows_none(client, slash, pool,
                                                                      answered_at_once):
    await play_to_the_end(client, slash)
    asked = await run(client, slash, "analyze", EVE)
    assert not asked.edit_original_response.called and not asked.delete_original_response.called


@pytest.fixture
def channels(client, monkeypatch) -> dict[int, MagicMock]:
    """The game's channel and another, as the client finds them."""
    found = {CHANNEL: text_channel(CHANNEL), CHANNEL + 1: text_channel(CHANNEL + 1)}
    monkeypatch.setattr(client, "get_channel", found.get)
    return found


async def test_the_games_channel_shows_the_bot_typing_while_it_analyses(client, slash, pool,
                                                                        channels):
    await play_to_the_end(client, slash)
    await run(client, slash, "analyze", EVE)
    typing = channels[CHANNEL].typing.return_value
    assert (typing.__aenter__.await_count, typing.__aexit__.await_count) == (1, 1)


async def test_an_analysis_asked_for_privately_shows_no_typing(client, slash, pool, channels,
                                                               answered_at_once):
    await play_to_the_end(client, slash)
    asked = await run(client, slash, "analyze", ALICE, game=1, channel_id=CHANNEL + 1)
    assert words(only(asked)).startswith("Game 1, 7 moves")
    assert not channels[CHANNEL].typing.called and not channels[CHANNEL + 1].typing.called


async def test_in_german_the_command_answers_in_german(client, slash, pool, answered_at_once):
    await play_to_the_end(client, slash)
    reply = only(await run(client, slash, "analyze", EVE, game=1, locale=discord.Locale.german))
    assert words(reply).startswith("Partie 1, 7 Züge: die größten Wendepunkte")


async def test_a_game_in_play_is_refused_to_its_players_too(client, slash):
    await start_game(client, slash)
    await run(client, slash, "move", ALICE, command="K12")
    for who in (ALICE, EVE):
        reply = only(await run(client, slash, "analyze", who))
        assert (words(reply), reply["ephemeral"]) == (
            "game 1 is still being played: the engine looks at a game only once it is over",
            True)
