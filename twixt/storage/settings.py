"""What users and guilds keep: the names users go by, guilds' settings and users' preferences
(key-value rows, defaults filled in from `model.GuildSettings` and `model.UserPrefs`): the
contract (`SettingStore`) and its SQL, the same on both back ends (written with `?`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from typing import Any, Protocol

from twixt.storage import model, rows
from twixt.storage.connection import Connection, Row
from twixt.storage.model import GuildSettings, UserPrefs
from twixt.storage.sql import SqlBase


class SettingStore(Protocol):
    """Users' names, guilds' settings and users' preferences."""

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

    async def users_prefs(self, user_ids: Sequence[int]) -> dict[int, UserPrefs]:
        """Each of some users' preferences (`user_prefs`), in one statement: what the pages
        of a game's players are shown with (their palettes), read once for them all."""

    async def update_user_prefs(self, user_id: int, **changes: Any) -> UserPrefs:
        """Change some preferences (names and types of `UserPrefs` fields); return all."""


class SqlSettings(SqlBase):
    """`SettingStore` in SQL."""

    async def remember_users(self, names: dict[int, str]) -> None:
        async with self._write() as db:
            # in one order, so that two of these at once cannot deadlock
            await db.execute_many(
                "INSERT INTO users (user_id, name) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET name = excluded.name",
                sorted(names.items()))

    async def user_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        return await self._column_of("users", "user_id", "name", user_ids)

    async def guild_settings(self, guild_id: int) -> model.GuildSettings:
        async with self._read_one() as db:
            return await _settings(db, "guild_settings", "guild_id", guild_id, model.GuildSettings)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> model.GuildSettings:
        async with self._write() as db:
            settings = await _update_settings(db, "guild_settings", "guild_id", guild_id,
                                              model.GuildSettings, changes)
            if changes.keys() & model.CLOCK_SETTINGS:
                # due at once (as of the last move), so the clocks work the marks out again
                await db.execute(
                    "UPDATE games SET wake_at = updated_at WHERE guild_id = ? AND "
                    "status = 'active' AND time_control IS NOT NULL AND "
                    "(wake_at IS NULL OR wake_at > updated_at)", guild_id)
            return settings

    async def guilds_with(self, setting: str, value: Any) -> tuple[int, ...]:
        if setting not in {field.name for field in fields(model.GuildSettings)}:
            raise ValueError(f"there is no setting called {setting}")
        async with self._read_one() as db:
            found = await db.fetch_all(
                "SELECT guild_id FROM guild_settings WHERE key = ? AND value = ? "
                "ORDER BY guild_id", setting, json.dumps(value))
        return tuple(row[0] for row in found)

    async def user_prefs(self, user_id: int) -> model.UserPrefs:
        async def read(db: Connection) -> model.UserPrefs:
            return await _settings(db, "user_prefs", "user_id", user_id, model.UserPrefs)

        return await self._read_one_by(read)

    async def users_prefs(self, user_ids: Sequence[int]) -> dict[int, model.UserPrefs]:
        held: dict[int, dict[str, Any]] = {user_id: {} for user_id in user_ids}
        if not held:
            return {}

        async def read(db: Connection) -> list[Row]:
            among, values = db.among("user_id", list(held))
            return await db.fetch_all(
                f"SELECT user_id, key, value FROM user_prefs WHERE {among}", *values)

        found = await self._read_one_by(read)
        for user_id, key, value in found:
            held[user_id][key] = value
        return {user_id: rows.settings(model.UserPrefs, kept) for user_id, kept in held.items()}

    async def update_user_prefs(self, user_id: int, **changes: Any) -> model.UserPrefs:
        async with self._write() as db:
            return await _update_settings(db, "user_prefs", "user_id", user_id, model.UserPrefs,
                                          changes)


async def _settings(db: Connection, table: str, owner: str, owner_id: int,
                    kind: type[rows.StoredSettings]) -> rows.StoredSettings:
    found = await db.fetch_all(f"SELECT key, value FROM {table} WHERE {owner} = ?", owner_id)
    return rows.settings(kind, {key: value for key, value in found})


async def _update_settings(db: Connection, table: str, owner: str, owner_id: int,
                           kind: type[rows.StoredSettings],
                           changes: dict[str, Any]) -> rows.StoredSettings:
    encoded = rows.checked_changes(await _settings(db, table, owner, owner_id, kind), changes)
    await db.execute_many(f"INSERT INTO {table} ({owner}, key, value) VALUES (?, ?, ?) "
                          f"ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                          [(owner_id, key, value) for key, value in sorted(encoded.items())])
    return await _settings(db, table, owner, owner_id, kind)
