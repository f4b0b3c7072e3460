"""What both back ends inherit: every subject's SQL, written once with `?` placeholders and run
through the connection seam (`storage.connection`).

A back end subclasses `SqlStorage` and keeps what really differs: how a transaction is opened
(`_read`, `_write` and their one-statement kinds), the locks and claims that PostgreSQL's
concurrent writers need and SQLite's single writer does not (`_rate`, `claim_due_games`,
`reclaim_reminders`, `expire_challenges`), batches of turns or group commit, and migrations.
"""

from __future__ import annotations

from twixt.storage.challenges import SqlChallenges
from twixt.storage.clocks import SqlClocks
from twixt.storage.engine_games import SqlEngineGames
from twixt.storage.games import SqlGames
from twixt.storage.private import SqlPrivate
from twixt.storage.settings import SqlSettings
from twixt.storage.stats import SqlStats
from twixt.storage.tournaments import SqlTournaments
from twixt.storage.vacations import SqlVacations
from twixt.storage.waiting import SqlWaiting


class SqlStorage(SqlGames, SqlChallenges, SqlClocks, SqlVacations, SqlTournaments, SqlPrivate,
                 SqlEngineGames, SqlWaiting, SqlSettings, SqlStats):
    """Every subject's SQL, over the transactions a back end opens (`sql.SqlBase`)."""
