"""The small things of tournaments a player notices: what `start` says on a running tournament, no
rematch of a tournament's game, a Swiss that ends early saying so, and tournament names that no line
start turns into markdown. Through the service over a real SQLite file."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.service.cases.tournaments.helpers import (
    PLAYERS,
    everything,
    lose,
    open_games,
    play_out,
    tournament_id_of,
    user,
)
from tests.service.people import GUILD, asking
from tests.typed import enter
from twixt.discord.replies import shown
from twixt.language import translation
from twixt.service import ButtonKind, NotAllowedError, Reply, TwixtService
from twixt.service.cases.tournaments.organising import standings_footer
from twixt.storage import TournamentStatus

P1, P2, P3 = PLAYERS[:3]
MANAGER = asking(P1, manager=True)
#: a line that Discord would draw as a list, a heading or a quote
MARKDOWN_LINE = re.compile(r"(?m)^\s*(?:[-+*]\s|[>#]|\d+[.)]\s)")


async def started(service: TwixtService, options: str, players=PLAYERS[:2],
                  name: str = "Autumn Cup") -> int:
    tournament_id = tournament_id_of(await enter(service, MANAGER,
                                                       f"tournament create {name} {options}"))
    for player in players:
        await enter(service, asking(player), "tournament join")
    await enter(service, MANAGER, "tournament start")
    return tournament_id


async def test_start_on_a_running_tournament_with_every_game_open_says_so(service):
    await started(service, "format roundrobin size 8 rules pp")
    reply = await enter(service, MANAGER, "tournament start")
    assert reply.plain == "Autumn Cup is running already, and each of its games is open."


async def test_an_tournament_games_final_board_has_no_rematch_but_the_standings(service, storage):
    tournament_id = await started(service, "format roundrobin size 8 rules pp", PLAYERS[:3])
    first, *_ = await open_games(storage, tournament_id)
    reply = await lose(service, user(first.black), first)
    assert "resigns" in reply.plain.lower() or reply.image is not None
    assert not [b for b in reply.buttons if b.kind is ButtonKind.REMATCH]
    assert any(r.plain == "Standings of Autumn Cup." and r.image for r in reply.all_messages())
    thread = (await storage.get_game(first.game_id)).channel_id
    with pytest.raises(NotAllowedError, match="games of an event are not rematched: Autumn Cup "
                                              "pairs its players itself"):
        await enter(service, asking(user(first.red), thread), "rematch")
    with pytest.raises(NotAllowedError, match="not rematched"):  # named by number elsewhere
        await enter(service, asking(user(first.red)), f"rematch {first.game_id}")


async def test_an_tournament_game_lost_on_time_has_no_rematch_button(service, storage, clock):
    tournament_id = await started(service, "format roundrobin size 8 rules pp time 1d vacation no",
                             PLAYERS[:3])
    await storage.update_guild_settings(GUILD, forfeit_on_timeout=True)
    claimed, *_forfeited = await open_games(storage, tournament_id)
    thread = (await storage.get_game(claimed.game_id)).channel_id
    clock.now += timedelta(days=1, hours=1)
    claimer = user(claimed.black)  # Red, to move first, ran out of time
    reply = await enter(service, asking(claimer, thread), "claim")
    assert "ran out of time" in reply.plain
    assert not [b for b in reply.buttons if b.kind is ButtonKind.REMATCH]
    told = [r for r in everything(await service.tick()) if "ran out of time" in r.plain]
    assert len(told) == 2  # the clocks forfeit the others
    assert not [b for r in told for b in r.buttons if b.kind is ButtonKind.REMATCH]


async def test_a_swiss_that_cannot_pair_another_round_ends_early_and_says_so(service, storage,
                                                                              clock):
    tournament_id = await started(service, "format swiss rounds 2 size 8 rules pp")
    said = everything(await play_out(service, tournament_id))  # two players meet only once
    tournament = await storage.get_tournament(tournament_id)
    assert (tournament.status, tournament.round) == (TournamentStatus.FINISHED, 1)
    assert ("Autumn Cup is over after round 1 of 2: no further round could be paired. These "
            "are the final standings.") in [r.plain for r in said]
    footer = standings_footer(tournament, translation("en"), clock.now)
    assert footer.startswith("Finished after round 1 of 2: no further pairing was possible · ")
    assert standings_footer(tournament, translation("de"), clock.now).startswith(
        "Beendet nach Runde 1 von 2")
    assert "Round" not in footer


async def test_a_swiss_played_to_its_last_round_ends_as_ever(service, storage, clock):
    tournament_id = await started(service, "format swiss rounds 1 size 8 rules pp")
    said = everything(await play_out(service, tournament_id))
    assert "Autumn Cup is over: these are the final standings." in [r.plain for r in said]
    tournament = await storage.get_tournament(tournament_id)
    assert standings_footer(tournament, translation("en"), clock.now).startswith(
        "Round 1 of 1 · finished · ")


@pytest.mark.parametrize(("name", "kept"), [("1. Cup", "1. Cup"), ("- Cup", "- Cup"),
                                             ("# Cup", "Cup"), ("2) Cup", "2) Cup"),
                                             ("-# 3. Cup", "- 3. Cup")])
async def test_tournament_names_at_the_start_of_a_line_format_nothing(service, storage, name,
                                                                 kept):
    tournament_id = await started(service, "format swiss rounds 2 size 8 rules pp", name=name)
    # kept as typed but for the `#` a record cannot hold; escaped where Discord shows it
    assert (await storage.get_tournament(tournament_id)).name == kept
    replies: list[Reply] = [await enter(service, MANAGER, "tournament start")]
    replies += await play_out(service, tournament_id)
    assert any(r.plain.startswith(kept) for r in everything(replies))  # first on a line
    in_discord = [shown(r.text) for r in everything(replies)]
    assert not [text for text in in_discord if MARKDOWN_LINE.search(text)]
