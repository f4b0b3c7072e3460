"""The storage the bot service talks to, as a Protocol: `SqliteStorage` or `PostgresStorage`.

Rules of the contract, whatever the backend:
- A game's state is the replay of its turn log; `version` is the number of turns in it.
- `append_turn` lands only if the game is still at `expected_version` (optimistic concurrency):
  of two turns racing, one lands and the other raises `StaleVersionError`. A finished game refuses
  turns with `GameFinishedError`. The turn and the game's end (with totals, ratings, and the
  unplayed moves it drops) commit together.
- A channel has at most one active game (`ChannelBusyError`); finished games are kept.
- A write returns once it is durable (committed; on SQLite fsynced, synchronous=FULL). Writes
  that arrive together may share one transaction and one commit (SQLite's group commit), each
  still atomic on its own: one that fails (a stale version, say) undoes only itself, and
  raises once the others are committed, so that what beat it can be read.
- `now` parameters default to the current UTC time; tests pass their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from twixt.storage.engine_games import EngineGame
from twixt.storage.model import (
    Challenge,
    FirstMove,
    GameResult,
    GameSetup,
    GameStatus,
    GuildSettings,
    LoadedGame,
    Note,
    Offer,
    OfferKind,
    PendingMove,
    Player,
    PlayerStats,
    StoredConditionals,
    StoredGame,
    UserPrefs,
    Vacation,
)
from twixt.storage.shards import Shards
from twixt.storage.tournaments import Entrant, Tournament, TournamentGame, TournamentStatus
from twixt.storage.waiting import Digest, Waiting, WaitingGame


class Storage(Protocol):
    """Games, turns, challenges, offers, settings, preferences and ratings; and what players
    keep beside games: conditional moves, vacations, notes and moves waiting to be
    confirmed."""

    async def close(self) -> None:
        """Finish pending work and release the database."""

    # --- challenges --------------------------------------------------------------------

    async def create_challenge(self, *, guild_id: int, channel_id: int, challenger_id: int,
                               invitees: Sequence[int], players: int, setup: GameSetup,
                               first: FirstMove, thread: bool, expires_at: datetime,
                               now: datetime | None = None) -> Challenge:
        """Invite `invitees` (empty or fewer than players-1: the rest is open to anyone)."""

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """The challenge, whatever its status; `NotFoundError` if there is none."""

    async def answer_challenge(self, challenge_id: int, user_id: int, accept: bool,
                               now: datetime | None = None) -> Challenge:
        """Record one invitee's answer; a named invitee's decline declines the challenge.

        Accepting an open place takes it. `NotInvitedError` if the user has no place to answer,
        `ChallengeClosedError` if it is no longer pending (or has expired by `now`).
        """

    async def cancel_challenge(self, challenge_id: int) -> Challenge:
        """The challenger withdraws a pending challenge."""

    async def pending_challenges(self, *, channel_id: int | None = None,
                                 user_id: int | None = None,
                                 now: datetime | None = None) -> tuple[Challenge, ...]:
        """Pending challenges in a channel and/or made by or to a user, oldest first; with
        `now`, only those that have not expired by then."""

    async def expire_challenges(self, now: datetime | None = None) -> int:
        """Mark every pending challenge past its expiry as expired; return how many.

        The clocks' tick calls it every time, so with nothing expired it must be cheap: an
        indexed look (pending by expiry), no rows loaded and no write transaction taken."""

    # --- games and turns ---------------------------------------------------------------

    async def create_game(self, *, guild_id: int, channel_id: int, players: Sequence[Player],
                          setup: GameSetup, challenge_id: int | None = None,
                          now: datetime | None = None, tournament_game_id: int | None = None,
                          accepting: int | None = None) -> StoredGame:
        """Seat `players` in turn order and start the game at version 0.

        With `challenge_id` the challenge becomes accepted in the same transaction; with
        `accepting` too, that user's acceptance is recorded in it first (as `answer_challenge`
        would, with its refusals), the last one the game waited for: refused, the game and the
        acceptance are both left unwritten (`ChallengeClosedError` "changed" when it does
        not complete the challenge or seat `players`). A game
        with a time control is due at once (its wake-up is `now`, see `due_games`), so the
        clocks work out its marks at their next tick.
        `ChannelBusyError` if the channel has an active game (the challenge then stays pending,
        its answers as they were).
        With `event_game_id` the game is linked to that pairing of a tournament in the same
        transaction; `PairingOpenedError`, storing nothing, if it has a game already.
        """

    async def get_game(self, game_id: int) -> StoredGame:
        """The game with its seats and result; `NotFoundError` if there is none."""

    async def load_game(self, game_id: int) -> LoadedGame:
        """The game and its full turn log, read together."""

    async def active_game(self, channel_id: int) -> StoredGame | None:
        """The active game of a channel, if any."""

    async def live_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The live version of each of some games (`StoredGame.live_version`: it grows with
        every turn, offer made or closed, and end), in one statement (the watcher of live
        pages); games not found are left out."""

    async def list_games(self, *, user_id: int | None = None, channel_id: int | None = None,
                         guild_id: int | None = None, status: GameStatus | None = None,
                         limit: int = 20, before_id: int | None = None,
                         visible_to: tuple[int, int] | None = None, offset: int = 0
                         ) -> tuple[StoredGame, ...]:
        """Games matching every filter given, newest first; page on with `before_id`, or skip
        `offset` games (a numbered page: only the page's games are read in full).

        `visible_to=(channel_id, user_id)` keeps the games that user may see from that
        channel: the channel's own, and the ones they played."""

    async def append_turn(self, game_id: int, expected_version: int, actor_id: int,
                          command: str, *, finish: GameResult | None = None,
                          wake_at: datetime | None = None, now: datetime | None = None,
                          waiting: Waiting | None = None) -> int:
        """Append a validated turn (canonical text) and return the new version.

        `finish` ends the game in the same transaction (as `finish_game` does). Otherwise a
        game with a time control gets `wake_at` as its next wake-up in the same transaction
        (None: due by `now` at the latest, an earlier wake-up kept); one without keeps none;
        and `waiting` (when given) says whose move the game now waits for, in the same
        statement.
        `StaleVersionError` if another turn landed first, `GameFinishedError` if the game is
        over, `NotFoundError` if there is no game.
        """

    async def finish_game(self, game_id: int, expected_version: int, result: GameResult,
                          now: datetime | None = None) -> StoredGame:
        """End a game without a turn (e.g. an abort), under the same version check. In the
        same transaction its result counts in the totals (and ratings, when rated), and what
        can no longer be played is dropped: offers, the wake-up, moves waiting for
        confirmation and conditional moves (notes stay)."""

    # --- offers ------------------------------------------------------------------------

    async def make_offer(self, game_id: int, kind: OfferKind, user_id: int, at_version: int,
                         now: datetime | None = None) -> Offer:
        """Open an offer, replacing an earlier one of the same kind in that game; the
        game's live version moves on."""

    async def open_offers(self, game_id: int) -> tuple[Offer, ...]:
        """The game's open offers; the caller judges whether a turn since made one lapse."""

    async def close_offer(self, game_id: int, kind: OfferKind) -> Offer | None:
        """Remove an offer (accepted, declined, withdrawn or lapsed) and return it; when there
        was one, the game's live version moves on."""

    # --- conditional moves: replies stored in advance, never part of the turn log -----------

    async def store_conditionals(self, game_id: int, user_id: int, at_version: int,
                                 at_move: int, plan: str, now: datetime | None = None) -> None:
        """Keep a player's conditional moves in a game (replacing what they had), under the
        version check: `StaleVersionError` if a turn landed since `at_version`,
        `GameFinishedError` if the game is over. A game's end drops them all."""

    async def conditionals(self, game_id: int) -> tuple[StoredConditionals, ...]:
        """Every player's conditional moves in a game (one row each at most), by user id."""

    async def drop_conditionals(self, game_id: int, user_id: int | None = None) -> None:
        """Forget the conditional moves of one player in a game, or (None) of all of them."""

    # --- clocks: each clocked game's next wake-up (the timers-table pattern) ---------------
    #
    # An active game with a time control has a wake-up: the moment its clock next needs a
    # look (the earlier of its next reminder and its deadline, worked out by the service).
    # It is kept in an indexed column, so finding what is due costs the same at 10 or 100,000
    # games. It is set by `create_game` (now), `append_turn` (`wake_at`), `set_wake` and a
    # change of the clock settings (`update_guild_settings`); finished games and games without
    # a time control have none. When in doubt a back end sets it earlier, never later: an
    # early wake-up costs one look, a late one a missed reminder.

    async def due_games(self, now: datetime, limit: int = 100) -> tuple[StoredGame, ...]:
        """Active games whose wake-up is at or before `now`: the `limit` earliest of them (in
        no particular order). Reads only those rows (an index on the wake-up), whatever the
        number of games; a caller that gets `limit` games asks again once it has set their
        wake-ups."""

    async def claim_due_games(self, now: datetime, lease_until: datetime, limit: int = 100, *,
                              shards: Shards | None = None) -> tuple[StoredGame, ...]:
        """Claim up to `limit` of the due games (as `due_games`), of the guilds of `shards`
        only when given: their wake-up moves to `lease_until` in the same transaction, so no
        other process (or tick) takes them before then. The claimer stores each one's real
        next wake-up (`set_wake`); one that dies first loses them only until `lease_until`.
        Of several processes claiming at once, each due game goes to one (on PostgreSQL, rows
        locked by another claimer are skipped: `FOR UPDATE SKIP LOCKED`)."""

    async def next_wake(self, *, shards: Shards | None = None) -> datetime | None:
        """The earliest wake-up of any game (None: no clock is running), of the guilds of
        `shards` only when given; one index look."""

    async def set_wake(self, game_id: int, version: int, wake_at: datetime | None) -> bool:
        """Set the wake-up of an active clocked game still at `version` (None: no wake-up
        until its next turn or a change of the clock settings). False, changing nothing, if
        a turn landed meanwhile (its own wake-up stands), the game is over or has no clock."""

    async def claim_reminder(self, game_id: int, version: int, stage: str,
                             now: datetime | None = None) -> bool:
        """True the first time a reminder (stage) is claimed for a game at a version, False
        ever after: whoever gets True sends it, so none is sent twice, restarts included."""

    async def reminder_delivered(self, game_id: int, version: int, stage: str,
                                 now: datetime | None = None) -> None:
        """Note that a claimed reminder reached its player (or no longer needs to)."""

    async def reclaim_reminders(self, claimed_before: datetime, now: datetime,
                                limit: int = 100, *, shards: Shards | None = None
                                ) -> tuple[tuple[int, int, str], ...]:
        """Claim again the reminders claimed before `claimed_before` and never delivered (of
        the guilds of `shards` only when given), the `limit` oldest at most: each one's
        claim moves to `now` in the same transaction, so of several processes only one sends
        it again, and not again before its new claim is as old. This is how a reminder whose
        sender died (or whose message Discord refused) is sent once more."""

    async def vote_abort(self, game_id: int, user_id: int) -> frozenset[int]:
        """Record a player's wish to abort a game; return everyone who has asked so far."""

    # --- vacations: when players' clocks stand still --------------------------------------

    async def add_vacation(self, guild_id: int, user_id: int, starts_at: datetime,
                           ends_at: datetime, days: int, *, allowed: int,
                           automatic: bool = False, game_id: int | None = None,
                           now: datetime | None = None) -> Vacation | None:
        """Store a user's vacation in a guild if, with its `days`, their vacations there that
        start in the same calendar year (UTC) count no more than `allowed` days; None, storing
        nothing, if they would. A vacation that starts when one of the user's already does is
        that one, returned as stored: so an automatic day is taken once, however many
        processes try. Storing one makes every active clocked game of the user in the guild
        due by `now`, in the same transaction, so the clocks work its marks out again."""

    async def end_vacation(self, vacation_id: int, ends_at: datetime, days: int,
                           now: datetime | None = None) -> Vacation | None:
        """End a vacation early at `ends_at`, from then on counting `days`; None, changing
        nothing, if it had already ended by then. The user's clocked games in the guild
        become due by `now`, as with `add_vacation`."""

    async def vacations(self, guild_id: int, user_ids: Sequence[int], since: datetime,
                        limit: int = 500) -> tuple[Vacation, ...]:
        """The vacations of these users in the guild that end after `since` (running, to
        come, or ended since), oldest first (by end, then id): of many, the `limit` that end
        last."""

    async def vacation_days_used(self, guild_id: int, user_id: int, year: int) -> int:
        """The days counted by the user's vacations in the guild that start in `year` (UTC)."""

    # --- tournaments and leagues (storage.tournaments) ---------------------------------------

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Store a new tournament (its `id` is ignored) and return it as stored."""

    async def get_tournament(self, tournament_id: int) -> Tournament:
        """The tournament; `NotFoundError` if there is none."""

    async def tournaments(self, guild_id: int, *, status: TournamentStatus | None = None,
                     limit: int = 20) -> tuple[Tournament, ...]:
        """A guild's tournaments (of one status, or any), newest first, `limit` at most."""

    async def due_tournaments(self, now: datetime, limit: int = 100) -> tuple[Tournament, ...]:
        """Tournaments still taking sign-ups whose deadline has come, and running tournaments owed a
        look (`Tournament.looks` > 0: a start, a game's end, a score or a withdrawal since the last
        look, each counted in its own transaction), earliest deadline first. The clocks' tick
        asks every time: two index looks, whatever the number of tournaments and pairings."""

    async def tournament_looked(self, tournament_id: int, looks: int) -> bool:
        """Clear a tournament's looks owed once the tick has looked at it, only if they are still
        the `looks` it read; False, changing nothing, if a write has added one since (a game
        that ended meanwhile is then looked at by the next tick)."""

    async def move_tournament(self, tournament_id: int, status: TournamentStatus, round: int, *,
                         was: TournamentStatus, was_round: int) -> bool:
        """Set a tournament's status and latest round, only if it still stands at `was` and
        `was_round`; False, changing nothing, if another start or round came first."""

    async def save_entrant(self, entrant: Entrant) -> bool:
        """Sign an entrant up (replacing its earlier row: a team confirmed); False, changing
        nothing, once the tournament no longer takes sign-ups. `EntrantTakenError` if one of its
        players is already in another entrant of the tournament (a unique key: two processes
        cannot both put a player in two teams)."""

    async def drop_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Take a sign-up back while the tournament takes sign-ups; False if there was none (or
        the tournament has started)."""

    async def entrants(self, tournament_id: int, limit: int) -> tuple[Entrant, ...]:
        """A tournament's entrants in the order they joined, `limit` at most."""

    async def withdraw_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Mark an entrant withdrawn, owing the tournament a look; False if it was already (or is
        not an entrant)."""

    async def pair_round(self, tournament_id: int, games: Sequence[TournamentGame], *, round: int,
                         was_round: int) -> tuple[TournamentGame, ...] | None:
        """Move a running tournament from round `was_round` to `round` and store that round's
        pairings (their ids, games and results ignored, except a bye's score), in one
        transaction: a crash leaves either both or neither. None, storing nothing, if the
        tournament no longer stands at `was_round` (another process paired it)."""

    async def tournament_games(self, tournament_id: int, limit: int) -> tuple[TournamentGame, ...]:
        """A tournament's pairings by round, `limit` at most."""

    async def tournament_game_of(self, game_id: int) -> TournamentGame | None:
        """The pairing a game was opened for, if it belongs to a tournament."""

    async def ended_unscored(self, tournament_id: int, limit: int) -> tuple[int, ...]:
        """The ids of the games of a tournament's pairings that have ended without a score yet
        (one query, however many of its games are open)."""

    async def score_tournament_game(self, tournament_game_id: int, score: float,
                                    forfeit: bool) -> bool:
        """Record Red's score of a pairing, owing its tournament a look; False, changing nothing,
        if it has one already."""

    # --- what a player keeps for themselves: notes, a move to confirm (storage.private) --

    async def add_note(self, game_id: int, user_id: int, text: str, *, most: int,
                       now: datetime | None = None) -> Note | None:
        """Keep a private note of a user on a game, numbered after their others; None,
        writing nothing, when they already have `most` notes on it."""

    async def notes(self, game_id: int, user_id: int, limit: int) -> tuple[Note, ...]:
        """A user's notes on a game, oldest first, `limit` at most."""

    async def clear_notes(self, game_id: int, user_id: int) -> int:
        """Remove all of a user's notes on a game; return how many there were."""

    async def hold_move(self, game_id: int, user_id: int, command: str, at_version: int,
                        now: datetime | None = None) -> PendingMove:
        """Keep a move waiting for its player's confirmation, replacing their earlier one in
        that game; it gets a new id, never one an earlier move had."""

    async def pending_move(self, game_id: int, user_id: int) -> PendingMove | None:
        """The move a user has waiting in a game, if any."""

    async def take_pending_move(self, pending_id: int) -> PendingMove | None:
        """Remove a waiting move and return it; None if it is gone (taken or replaced), so
        of two confirmations at once only one gets it."""

    # --- the bot as a player (storage.bots) ---------------------------------------------

    async def add_engine_challenge(self, challenge_id: int, guild_id: int,
                                takebacks: bool) -> None:
        """Keep what a challenge with bot seats says beyond its setup: whether the bot grants
        takebacks in its game."""

    async def start_engine_game(self, challenge_id: int, game_id: int) -> None:
        """The game of a challenge with bot seats has started: it awaits the bot (see
        `awaiting_bot_games`) until the bot has looked at it. Nothing for another challenge."""

    async def engine_game(self, game_id: int) -> EngineGame | None:
        """What the bot keeps beside a game; None for a game without bot seats."""

    async def await_engine(self, game_id: int, awaiting: bool) -> None:
        """Mark that a game may need the bot now (a bot seat to move, an offer to answer), or
        that it has nothing to do for it."""

    async def awaiting_engine_games(self, limit: int, *, shards: Shards | None = None
                                 ) -> tuple[int, ...]:
        """The ids of the games marked as awaiting the bot (of the guilds of `shards` only,
        when given), `limit` at most: an index of those, whatever the number of games."""

    async def count_hopeless(self, game_id: int, team: int, version: int,
                             hopeless: bool) -> int:
        """Count the bot's turn at `version` for `team` (0, 1): a hopeless one adds one to its
        turns in a row judged lost, any other starts them again; return the count. A version
        counted already is not counted again (a search repeated after a restart)."""

    async def claim_busy_notice(self, game_id: int, version: int) -> bool:
        """True the first time the game is to be told, at `version`, that the bot is busy;
        False ever after at that version."""

    async def open_engine_games(self, guild_id: int, user_id: int) -> int:
        """How many games in progress in the guild the user plays against (or beside) the
        bot."""

    # --- users, settings, preferences, stats -------------------------------------------

    async def remember_users(self, names: dict[int, str]) -> None:
        """Keep the names users go by now (they change; the newest wins)."""

    async def user_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The known names of some users; unknown ones are left out."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, defaults filled in."""

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings (names and types of `GuildSettings` fields); return all.

        A change of a setting the clocks depend on (`model.CLOCK_SETTINGS`) makes every
        active clocked game of the guild due at once (wake-up: its last move's time, if not
        earlier), in the same transaction, so the clocks work their marks out again."""

    async def guilds_with(self, setting: str, value: Any) -> tuple[int, ...]:
        """The guilds whose stored `setting` has `value` (a default is not stored)."""

    async def user_prefs(self, user_id: int) -> UserPrefs:
        """The user's preferences, defaults filled in."""

    async def update_user_prefs(self, user_id: int, **changes: Any) -> UserPrefs:
        """Change some preferences (names and types of `UserPrefs` fields); return all."""

    # --- where is it my move ------------------------------------------------------------

    async def set_waiting(self, game_id: int, waiting: Waiting) -> None:
        """Say whose move an active game waits for (a game just begun; turns say it in
        `append_turn`)."""

    async def waiting_games(self, user_id: int, limit: int) -> tuple[WaitingGame, ...]:
        """The games in progress, in any server or DM, that wait for `user_id`'s move, most
        urgent first (the soonest deadline, then the longest waiting), at most `limit`: one
        index lookup of the player's own games."""

    async def digest(self, user_id: int) -> Digest | None:
        """A player's daily digest, if they asked for one."""

    async def set_digest(self, digest: Digest) -> None:
        """Ask for a daily digest (or change its hour or zone)."""

    async def drop_digest(self, user_id: int) -> bool:
        """No more digests; whether there was one."""

    async def due_digests(self, now: datetime, limit: int) -> tuple[Digest, ...]:
        """The digests due by `now`, soonest first, at most `limit` (an index range)."""

    async def advance_digests(self, moves: Sequence[tuple[Digest, datetime]]
                              ) -> tuple[int, ...]:
        """Move due digests on, each to its next time, in one transaction; the players whose
        digest this call moved — not one another process (or an earlier round) moved
        already — so that each is sent once."""

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A user's wins, losses, draws and rating in a guild."""

    async def leaderboard(self, guild_id: int, limit: int = 10,
                          offset: int = 0) -> tuple[PlayerStats, ...]:
        """The guild's rated players, best rating first; page on with `offset`."""

    async def head_to_head(self, guild_id: int, user_id: int,
                           other_id: int) -> tuple[int, int, int]:
        """`user_id`'s wins, losses and draws against `other_id` (on opposite sides)."""
