"""A tournament's standings as crosstable pictures: one per league group, one for the others.

The numbers come from `twixt.service.pure.tournaments.standings` over the stored pairings;
the picture from `rendering.render_crosstable`, drawn in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from twixt import rendering
from twixt.language import Translation
from twixt.service.cases.tournaments.rounds import played_of, team_name
from twixt.service.commands.options import describe_setup
from twixt.service.pure.tournaments import standings as ranking
from twixt.storage import Entrant, Tournament, TournamentFormat, TournamentGame

#: a cell's text for Red's score, seen from Red's side (forfeits: `+` and `−`)
_PLAYED = {1.0: "1", 0.5: "½", 0.0: "0"}
_FORFEIT = {1.0: "+", 0.5: "½", 0.0: "−"}


def groups_of(games: Sequence[TournamentGame]) -> dict[int, list[int]]:
    """Each group's entrants, in the order they first appear in the pairings."""
    groups: dict[int, list[int]] = {}
    for game in games:
        members = groups.setdefault(game.group, [])
        for entrant in (game.red, game.black):
            if entrant is not None and entrant not in members:
                members.append(entrant)
    return groups


def group_standings(tournament: Tournament, games: Sequence[TournamentGame], group: Sequence[int]
                    ) -> tuple[ranking.Standing, ...]:
    """The standings of one group (all of a tournament but a league's) from its scored games.

    A bye counts in a Swiss only (a point, as Swiss pairing wants, and the round's notice
    names it). In a round robin or a league group every entrant sits out as often as every
    other, so a bye would add the same point to every row without a result in the table to
    show for it (`Pts 2` beside the results `1 0` of a round robin of three); there it is
    no game and scores nothing."""
    members = set(group)
    byes_count = tournament.format is TournamentFormat.SWISS
    played = [played_of(g) for g in games if g.score is not None and g.red in members
              and (g.black is not None or byes_count)]
    tie_break = (ranking.TieBreak.BUCHHOLZ if tournament.format is TournamentFormat.SWISS
                 else ranking.TieBreak.SONNEBORN_BERGER)
    return ranking.standings(list(group), played, tie_break)


def crosstables(tournament: Tournament, games: Sequence[TournamentGame],
                entrants: Sequence[Entrant],
                names: dict[int, str], tr: Translation, footer: str) -> list[rendering.Crosstable]:
    """The crosstables of a tournament, said by `tr`: one per group, strongest group first."""
    players = {e.user_id: e.players for e in entrants}
    withdrawn = {e.user_id for e in entrants if e.withdrawn}
    label = "Buchholz" if tournament.format is TournamentFormat.SWISS else tr("SB")
    setup = tr.say(describe_setup(tournament.setup))
    tables = []
    groups = groups_of(games)
    for number, group in sorted(groups.items()):
        ranks = group_standings(tournament, games, group)
        order = [s.entrant for s in ranks]
        title = (tr("{event}, group {group} — {setup}", event=tournament.name, group=number + 1,
                    setup=setup) if len(groups) > 1
                 else tr("{event} — {setup}", event=tournament.name, setup=setup))
        rows = tuple(rendering.CrosstableRow(
            team_name(players.get(s.entrant, (s.entrant,)), names), s.rank, s.points,
            s.tie_break, tuple(_cell(s.entrant, other, games) for other in order),
            s.entrant in withdrawn) for s in ranks)
        tables.append(rendering.Crosstable(title, label, rows, footer, tr.locale))
    return tables


async def pictures(tables: Sequence[rendering.Crosstable]) -> list[bytes]:
    """The crosstables drawn, in a worker thread (drawing takes a while)."""
    return [await asyncio.to_thread(rendering.render_crosstable, table) for table in tables]


def _cell(entrant: int, other: int, games: Sequence[TournamentGame]) -> str:
    """What `entrant` scored against `other`: one result a game, `■` on the diagonal."""
    if entrant == other:
        return "■"
    results = []
    for game in games:
        if game.score is None or {game.red, game.black} != {entrant, other}:
            continue
        own = game.score if game.red == entrant else 1.0 - game.score
        results.append((_FORFEIT if game.forfeit else _PLAYED)[own])
    return " ".join(results)
