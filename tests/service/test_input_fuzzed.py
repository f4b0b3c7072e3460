"""Any text a player may type, against the whole command vocabulary: the service answers with
its own one-line error or acts, and a refused command changes nothing in the database.

Numbers of any length, digits of every script (`²`, `٣`), option names with absurd values:
each example plays a short sequence of such lines on a real SQLite file.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fakes import Clock
from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CAROL, asking
from tests.typed import enter
from twixt.service import ServiceError, TwixtService, User
from twixt.storage import SqliteStorage

DISCORD_MESSAGE_LIMIT = 2000  # characters in one message

VERBS = ["", "challenge", "team", "accept", "decline", "move", "resign", "draw", "takeback",
         "accept takeback", "decline takeback", "claim", "board", "status", "help", "abort",
         "export", "history", "replay", "import", "stats", "leaderboard", "rematch",
         "settings", "server", "swap", "privilege", "offer draw", "accept draw", "timeout",
         "remove", "G6", "K10 link", "E5-G6"]
KNOWN_WORDS = ["size", "rules", "swap", "handicap", "time", "first", "thread", "page", "vs",
               "link", "all", "theme", "palette", "side", "dm", "autolink", "expiry",
               "forfeit", "reminder", "dark", "yes", "no", "pp", "me", "them", "12", "24x18",
               "9999999999d", "0h", "1m", "60d", "²", "#1", "alice", "bob", "@carol", "lg"]

numbers = st.one_of(
    st.text(alphabet="0123456789", min_size=1, max_size=5000),      # any length
    st.sampled_from(["²", "³", "¹", "٣", "໓", "0", "-1", "00", "1e3", "9" * 30, "#7"]),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=8),
)
words = st.one_of(
    st.sampled_from(KNOWN_WORDS),
    numbers,
    st.builds(str.__add__, st.sampled_from(["g", "K", "ab", "zz", ""]), numbers),
    st.text(max_size=12),
)
lines = st.builds(lambda verb, rest: " ".join([verb, *rest]).strip(),
                  st.sampled_from(VERBS), st.lists(words, max_size=4))
steps = st.lists(st.tuples(st.sampled_from([ALICE, BOB, CAROL]), lines, st.booleans()),
                 min_size=1, max_size=10)


def _person(word: str) -> User:
    return User(abs(hash(word.casefold())) % 10**9 + 1000, word)


class Database:
    """What a second connection reads of the game's database: every schema entry and every
    row of every table (what an SQL dump holds, without printing it as SQL text).

    It reads the tables again only after another connection committed: SQLite's
    `PRAGMA data_version` changes then, and only then, so a step that wrote nothing costs one
    pragma instead of a read of the whole file."""

    def __init__(self, path: Path) -> None:
        self._connection = sqlite3.connect(path)
        self._version: int | None = None
        self._contents: list[object] = []

    def close(self) -> None:
        self._connection.close()

    def contents(self) -> list[object]:
        (version,), = self._connection.execute("PRAGMA data_version")
        if version != self._version:
            self._version = version
            schema = self._connection.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
            ).fetchall()
            self._contents = [*schema, *(
                (name, self._connection.execute(f'SELECT * FROM "{name}"').fetchall())
                for kind, name, _, _ in schema
                if kind == "table")]
        return self._contents


async def _play(path: Path, played: list[tuple[User, str, bool]]) -> None:
    async with await SqliteStorage.open(path) as storage:
        service = TwixtService(storage, clock=Clock(), rng=random.Random(1))
        await start_game(service, size="12", swap="no")
        with closing(Database(path)) as database:
            await _play_lines(service, database, played)


async def _play_lines(service: TwixtService, database: Database,
                      played: list[tuple[User, str, bool]]) -> None:
    for user, text, manager in played:
        before = database.contents()
        try:
            reply = await enter(service, asking(user, manager=manager), text, _person)
        except ServiceError as error:
            assert "\n" not in str(error), (text, str(error))
            assert len(str(error)) <= DISCORD_MESSAGE_LIMIT, text
            assert database.contents() == before, f"refused “{text}” but changed the database"
        else:
            assert all(len(m.text) <= DISCORD_MESSAGE_LIMIT for m in reply.all_messages())


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(steps)
def test_any_line_is_answered_or_refused_in_one_line_and_a_refusal_changes_nothing(played):
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_play(Path(folder) / "fuzz.db", played))
