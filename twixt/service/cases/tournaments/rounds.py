"""A tournament at work: pairing its rounds, opening each game in a thread of its own, scoring
games as they end, and moving on (the next Swiss round, the tournament's end).

Everything is read from storage each time (entrants, pairings, games), so a restart loses
nothing: a game that ended while its score was not yet recorded is scored the next time the
tournament is looked at (`refresh`). Two game ends at once cannot pair a round twice: a round is
paired only by whoever moves the tournament's stored round on, in the transaction that stores its
pairings (`Storage.pair_round`); a game is linked to its pairing in the transaction that
creates it, so a pairing never gets two.

What tournament rules leave open, settled here: an aborted tournament game is scored as an
unplayed draw (½ each, a forfeit: it counts for points, not as a game played); a league's
groups are formed by the players' current rating (a team's: its players' mean), strongest
first.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from twixt.language import Translation, message
from twixt.service.commands.options import describe_setup
from twixt.service.desk.desk import Desk
from twixt.service.failures import log_failure
from twixt.service.model import Reply
from twixt.service.names import seat_names
from twixt.service.pure.tournaments import pairing
from twixt.storage import (
    Entrant,
    GameResult,
    GameStore,
    Player,
    Result,
    SettingStore,
    StatsStore,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
    TournamentStore,
)


class RoundsStorage(TournamentStore, GameStore, SettingStore, StatsStore, Protocol):
    """The subjects of storage tournaments' rounds read and write."""


log = logging.getLogger(__name__)

#: the most entrants a tournament takes (the crosstable's most rows)
MAX_ENTRANTS = 64
#: the most entrants a round robin takes: all its games open at once, each in a thread of
#: its own, and Discord caps a server's active threads (at about a thousand), so 20 players
#: (190 games, 380 with `double`) leave room for the server's other threads; more players
#: play a league, whose groups are round robins of a size of their own
MAX_ROUND_ROBIN = 20
#: an unrated player counts with this rating when groups and Swiss score groups are formed
UNRATED = 1500.0


@dataclass(frozen=True)
class Notice:
    """A message about a tournament to send when the work that caused it is done, said in the
    language of whoever sends it (`make(tr)`)."""

    guild_id: int
    make: Callable[[Translation], Awaitable[Reply]]
    #: of several notices with one key only the last is sent (a tournament's standings, when
    #: a withdrawal ends several games at once)
    key: int | None = None


def max_games(entrants: int) -> int:
    """The most pairings a tournament of `entrants` can have: both colours of every pairing."""
    return max(entrants, 2) ** 2 * 2


class Rounds:
    """Pairs, opens, scores and finishes tournaments' games."""

    def __init__(self, desk: Desk, store: RoundsStorage) -> None:
        self._desk = desk
        self._store = store
        #: messages waiting for the front end (see `TwixtService`), oldest first
        self.notices: list[Notice] = []
        #: set by the subject that draws standings: the notice of a tournament's new standings
        self.standings_notice: Callable[[Tournament], Notice] | None = None

    # --- reading ------------------------------------------------------------------------

    async def entrants(self, tournament: Tournament) -> tuple[Entrant, ...]:
        return await self._store.entrants(tournament.id, MAX_ENTRANTS * 2)

    async def players(self, tournament: Tournament) -> dict[int, tuple[int, ...]]:
        """The entrants that play (confirmed teams), each with its players."""
        return {e.user_id: e.players for e in await self.entrants(tournament) if e.confirmed}

    async def refresh(self, tournament: Tournament) -> tuple[TournamentGame, ...]:
        """The tournament's pairings, each game that has ended scored first (also one whose end
        came while its score was not yet stored: a restart in between)."""
        storage = self._store
        games = await storage.tournament_games(tournament.id, max_games(MAX_ENTRANTS))
        # only the games that have ended unscored are read, not every open one
        ended = set(await storage.ended_unscored(tournament.id, max_games(MAX_ENTRANTS)))
        players: dict[int, tuple[int, ...]] | None = None
        scored = []
        for game in games:
            if game.score is None and game.game_id in ended:
                stored = await storage.get_game(game.game_id)
                if not stored.is_active and stored.result is not None:
                    players = players or await self.players(tournament)
                    score, forfeit = red_score(stored.result, players.get(game.red, ()))
                    if await storage.score_tournament_game(game.id, score, forfeit):
                        game = replace(game, score=score, forfeit=forfeit)
                    else:  # scored meanwhile (a withdrawal's forfeit): that score stands
                        game = await storage.tournament_game_of(stored.id) or game
            scored.append(game)
        return tuple(scored)

    async def ratings(self, tournament: Tournament, entrants: dict[int, tuple[int, ...]]
                      ) -> dict[int, float]:
        """Each entrant's current rating in the tournament's server (a team's: the mean)."""
        ratings = {}
        for entrant, players in entrants.items():
            values = [(await self._store.player_stats(tournament.guild_id, uid)).rating
                      for uid in players]
            ratings[entrant] = sum(v if v is not None else UNRATED for v in values) / len(values)
        return ratings

    # --- moving on ----------------------------------------------------------------------

    async def claim(self, tournament: Tournament) -> bool:
        """Close a tournament's sign-up to start it (its round still 0: not yet paired); False if
        another start came first. Sign-ups are refused from here on (`Storage.save_entrant`),
        so the entrants then read are the ones to pair."""
        return await self._store.move_tournament(tournament.id, TournamentStatus.RUNNING, 0,
                                                   was=TournamentStatus.SIGNUP, was_round=0)

    async def pair_first(self, tournament: Tournament,
                         groups: Sequence[Sequence[int]] | None = None) -> None:
        """Pair a claimed tournament's first round (a round robin's and league's: all rounds) and
        open its games; again after a crash in between, which leaves it at round 0 (the
        clocks' tick finds it). `groups`: a league season's groups as carried over,
        strongest first."""
        entrants = await self.players(tournament)
        order = list(entrants)
        if tournament.format is TournamentFormat.SWISS:
            pairings: list[tuple[int, pairing.Pairing]] = [
                (0, p) for p in pairing.swiss_round(order, (), 1,
                                                    await self.ratings(tournament, entrants))]
        else:
            if groups is None:
                ratings = await self.ratings(tournament, entrants)
                by_rating = sorted(order, key=lambda e: -ratings[e])
                groups = (pairing.league_groups(by_rating, tournament.rounds)
                          if tournament.format is TournamentFormat.LEAGUE else (tuple(order),))
            pairings = [(number, p) for number, group in enumerate(groups)
                        for cycle in pairing.round_robin(group, tournament.double) for p in cycle]
        await self._open_round(tournament, pairings, entrants, 1)

    async def game_ended(self, game_id: int) -> None:
        """A game has ended (the hook of `Desk`): if it belongs to a tournament, score it
        and move the tournament on."""
        linked = await self._store.tournament_game_of(game_id)
        if linked is None:
            return
        tournament = await self._store.get_tournament(linked.tournament_id)
        if tournament.status is TournamentStatus.RUNNING:
            await self.advance(tournament)

    async def advance(self, tournament: Tournament) -> None:
        """Score what has ended; pair a Swiss's next round once the last one is over, or end
        the tournament once every game is; and post the standings."""
        await self.open_missing(tournament)
        games = await self.refresh(tournament)
        if self.standings_notice is not None:
            self.notices.append(self.standings_notice(tournament))
        if any(game.score is None for game in games):
            return
        if tournament.format is TournamentFormat.SWISS and tournament.round < tournament.rounds:
            await self._next_swiss_round(tournament, games)
        else:
            await self._finish(tournament)

    async def _next_swiss_round(self, tournament: Tournament,
                                games: Sequence[TournamentGame]) -> None:
        entrants = {e.user_id: e.players for e in await self.entrants(tournament)
                    if e.confirmed and not e.withdrawn}
        played = [played_of(game) for game in games]
        try:
            pairings = pairing.swiss_round(list(entrants), played, tournament.round + 1,
                                           await self.ratings(tournament, entrants))
        except pairing.PairingError:  # everyone has met everyone they may: it ends early
            await self._finish(tournament, early=True)
            return
        await self._open_round(tournament, [(0, p) for p in pairings], entrants,
                               tournament.round + 1)

    async def _finish(self, tournament: Tournament, early: bool = False) -> None:
        """End the tournament; `early`: a Swiss whose next round could not be paired."""
        if not await self._store.move_tournament(tournament.id, TournamentStatus.FINISHED,
                                                   tournament.round, was=TournamentStatus.RUNNING,
                                                   was_round=tournament.round):
            return

        async def over(tr: Translation) -> Reply:
            if early:
                return await said(tr("{event} is over after round {round} of {rounds}: no "
                                     "further round could be paired. These are the final "
                                     "standings.", event=tournament.name, round=tournament.round,
                                     rounds=tournament.rounds), tournament.channel_id)
            return await said(tr("{event} is over: these are the final standings.",
                                 event=tournament.name), tournament.channel_id)

        self.notices.append(Notice(tournament.guild_id, over))

    async def _open_round(self, tournament: Tournament, pairings: Sequence[tuple[int,
                                                                                 pairing.Pairing]],
                          entrants: dict[int, tuple[int, ...]], round: int) -> None:
        """Move the tournament on to `round` and store its pairings (a bye scored at once) in one
        transaction, then open each game in a thread of its own under the tournament's channel.
        Nothing if the tournament has moved on meanwhile (another game's end paired it)."""
        stored = await self._store.pair_round(tournament.id, [
            TournamentGame(0, tournament.id, p.round, group, p.red, p.black,
                      score=1.0 if p.black is None else None) for group, p in pairings],
            round=round, was_round=tournament.round)
        if stored is None:
            return
        tournament = replace(tournament, round=round)
        names = await self._desk.names([uid for players in entrants.values()
                                        for uid in players])
        opened = await self._open_all(tournament, stored, entrants, names)
        rounds = {game.round for game in stored}
        # a round of its own (a Swiss) names its bye: nobody else is told who sits out
        byes = [team_name(entrants[game.red], names) for game in stored
                if game.black is None] if len(rounds) == 1 else []
        self.notices.append(Notice(tournament.guild_id, lambda tr: said(
            tr.plural("{event}: {n} game opened, each in its own thread.",
                      "{event}: {n} games opened, each in its own thread.", opened,
                      event=tournament.name)
            + (" " + tr("Round {round}.", round=min(rounds)) if len(rounds) == 1 else "")
            + "".join(" " + tr("{name} has a bye (a win).", name=bye) for bye in byes),
            tournament.channel_id)))

    async def open_missing(self, tournament: Tournament) -> int:
        """Open the games of pairings that have none yet (a thread Discord refused, a
        restart in the middle of a start); how many were opened."""
        missing = [game for game in await self.refresh(tournament)
                   if game.game_id is None and game.black is not None and game.score is None]
        if not missing:
            return 0
        entrants = await self.players(tournament)
        names = await self._desk.names([uid for players in entrants.values()
                                        for uid in players])
        return await self._open_all(tournament, missing, entrants, names)

    async def _open_all(self, tournament: Tournament, games: Sequence[TournamentGame],
                        entrants: dict[int, tuple[int, ...]], names: dict[int, str]) -> int:
        """Open each game; one that fails is logged and left for `open_missing`."""
        opened = 0
        for game in games:
            if game.black is None:
                continue
            try:
                await self._open(tournament, game, entrants, names)
                opened += 1
            except Exception:
                log_failure(log, "tournament game not opened", {"tournament_game_id": game.id})
        return opened

    async def _open(self, tournament: Tournament, game: TournamentGame,
                    entrants: dict[int, tuple[int, ...]], names: dict[int, str]) -> None:
        desk = self._desk
        assert game.black is not None and desk.port.threads is not None
        red, black = entrants[game.red], entrants[game.black]
        order = [red[0], black[0], *((red[1], black[1]) if len(red) == 2 else ())]
        weekends = [(await self._store.user_prefs(uid)).weekends for uid in order]
        seated = seat_names([names[uid] for uid in order], desk.server_tr(tournament.guild_id))
        players = [Player(uid, name, weekends_off=not on) for uid, name, on in
                   zip(order, seated, weekends, strict=True)]
        title = message("{event}: {first} vs {second}", event=tournament.name,
                        first=team_name(red, names), second=team_name(black, names))
        channel_id = await desk.port.threads.open_thread(tournament.channel_id, title)
        stored = await self._store.create_game(guild_id=tournament.guild_id, channel_id=channel_id,
                                                players=players, setup=tournament.setup,
                                                now=desk.clock(), tournament_game_id=game.id)
        await desk.note_waiting(stored)
        first = players[0]

        async def announce(tr: Translation) -> Reply:
            text = tr("{event}, round {round}: game {game}, {red} (Red) against {black} "
                      "(Black) — {setup}. {name}, you move first.", event=tournament.name,
                      round=game.round, game=stored.id, red=team_name(red, names),
                      black=team_name(black, names), setup=describe_setup(tournament.setup),
                      name=first.name)
            return Reply(text, mentions=tuple(order), channel_id=channel_id)

        self.notices.append(Notice(tournament.guild_id, announce))


def team_name(players: Sequence[int], names: dict[int, str]) -> str:
    return " & ".join(names.get(uid, f"player {uid}") for uid in players)


def red_score(result: GameResult, red_players: Sequence[int]) -> tuple[float, bool]:
    """Red's score of an ended game, and whether it was decided without play (an abort:
    an unplayed draw)."""
    if result.result is Result.ABORTED:
        return 0.5, True
    if result.result is Result.DRAW:
        return 0.5, False
    return (1.0 if set(result.winners) & set(red_players) else 0.0), False


def played_of(game: TournamentGame) -> pairing.PairingResult:
    assert game.score is not None
    return pairing.PairingResult(game.round, game.red, game.black, game.score, game.forfeit)


async def said(text: str, channel_id: int) -> Reply:
    """A notice's message in the tournament's channel."""
    return Reply(text, channel_id=channel_id)


def capacity(tournament: Tournament) -> int:
    """How many entrants `tournament` takes (see `MAX_ROUND_ROBIN`)."""
    return MAX_ROUND_ROBIN if tournament.format is TournamentFormat.ROUND_ROBIN else MAX_ENTRANTS
