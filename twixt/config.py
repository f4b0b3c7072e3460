"""Settings from the environment (and a `.env` file beside the working directory).

Secrets such as the Discord token come only from here; nothing secret is committed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from twixt.storage import DEFAULT_PATH, Database, database_setting
from twixt.storage.shards import Shards

_TRUE = {"1", "true", "yes", "on"}


class ConfigError(ValueError):
    """A setting that cannot be used; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs to run. See `.env.example` for the variables."""

    token: str | None = None
    #: a SQLite file, or a PostgreSQL URL (`postgresql://…`)
    database: Database = Path(DEFAULT_PATH)
    guild_ids: tuple[int, ...] = ()
    message_content: bool = False
    log_level: str = "INFO"
    #: the shards this process runs (None: as many as Discord recommends, all here)
    shards: Shards | None = None
    #: how many of the bot's searches run at once, each in a process (None: one per core)
    engine_workers: int | None = None
    #: the web board beside the bot (`TWIXT_WEB_PORT`; None: no web board)
    web_port: int | None = None
    #: the address it listens on (`TWIXT_WEB_HOST`; in a container 0.0.0.0)
    web_host: str = "127.0.0.1"
    #: where players reach it, for the links `/twixt board` gives (`TWIXT_WEB_URL`)
    web_url: str = "http://127.0.0.1:8080"

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the slash commands: of several processes (shards), only
        the one that runs shard 0, so that they never sync at once or undo each other."""
        return self.shards is None or 0 in self.shards.ids

    @classmethod
    def from_environment(cls, env: dict[str, str] | None = None,
                         overrides: dict[str, str] | None = None) -> Settings:
        """Read the settings; a `.env` file fills in what the environment does not set, and
        `overrides` (command-line options, by variable name) win over both."""
        if env is None:
            load_dotenv(Path.cwd() / ".env")
            env = dict(os.environ)
        env = {**env, **(overrides or {})}
        guilds = env.get("TWIXT_GUILD_IDS", "").replace(",", " ").split()
        if not all(g.isdigit() for g in guilds):
            raise ConfigError("TWIXT_GUILD_IDS is a list of guild ids, like 1234,5678")
        level = env.get("TWIXT_LOG_LEVEL", "INFO").upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(f"TWIXT_LOG_LEVEL is DEBUG, INFO, WARNING or ERROR, not {level}")
        return cls(
            token=env.get("DISCORD_TOKEN") or None,
            database=database_setting(env.get("TWIXT_DB") or str(DEFAULT_PATH)),
            guild_ids=tuple(int(g) for g in guilds),
            message_content=env.get("TWIXT_MESSAGE_CONTENT", "").lower() in _TRUE,
            log_level=level,
            shards=shards_setting(env.get("TWIXT_SHARD_COUNT", ""),
                                  env.get("TWIXT_SHARD_IDS", "")),
            engine_workers=engine_workers_setting(env.get("TWIXT_ENGINE_WORKERS", "")),
            web_port=web_port_setting(env.get("TWIXT_WEB_PORT", "")),
            web_host=env.get("TWIXT_WEB_HOST") or "127.0.0.1",
            web_url=env.get("TWIXT_WEB_URL")
            or f"http://127.0.0.1:{env.get('TWIXT_WEB_PORT') or 8080}",
        )


def engine_workers_setting(value: str) -> int | None:
    """TWIXT_ENGINE_WORKERS: the bot's searches at once (each uses a core while it thinks);
    empty means one per core."""
    value = value.strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ConfigError(f"TWIXT_ENGINE_WORKERS is a number of processes like 2 (or empty: "
                          f"one per core), not {value!r}")
    return int(value)


def web_port_setting(value: str) -> int | None:
    """TWIXT_WEB_PORT: the web board's port beside the bot; empty means no web board."""
    value = value.strip()
    if not value:
        return None
    if not value.isdigit() or not 0 <= int(value) <= 65535:
        raise ConfigError(f"TWIXT_WEB_PORT is a port like 8080 (0: any free one; empty: no "
                          f"web board), not {value!r}")
    return int(value)


def shards_setting(count: str, ids: str) -> Shards | None:
    """The shards of `--shard-count N --shard-ids 0,1` (or TWIXT_SHARD_COUNT and
    TWIXT_SHARD_IDS): ids without a count is an error, a count without ids means every shard
    in this process, neither means as many as Discord recommends."""
    count, listed = count.strip(), ids.replace(",", " ").split()
    if not count:
        if listed:
            raise ConfigError("shard ids (--shard-ids, TWIXT_SHARD_IDS) need a shard count "
                              "(--shard-count, TWIXT_SHARD_COUNT), e.g. --shard-count 2 "
                              "--shard-ids 0")
        return None
    if not count.isdigit():
        raise ConfigError(f"the shard count (--shard-count, TWIXT_SHARD_COUNT) is a whole "
                          f"number, not {count!r}")
    if not all(i.isdigit() for i in listed):
        raise ConfigError(f"shard ids (--shard-ids, TWIXT_SHARD_IDS) are numbers like 0,1, "
                          f"not {ids.strip()!r}")
    try:
        if not listed:
            return Shards.all_of(int(count))
        return Shards(int(count), tuple(int(i) for i in listed))
    except ValueError as error:
        raise ConfigError(f"--shard-count/--shard-ids: {error}") from None
