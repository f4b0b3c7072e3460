"""Settings from the environment (and a `.env` file beside the working directory).

Secrets such as the Discord token come only from here; nothing secret is committed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from storage import DEFAULT_PATH, Database, database_setting

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

    @classmethod
    def from_environment(cls, env: dict[str, str] | None = None) -> Settings:
        """Read the settings; a `.env` file fills in what the environment does not set."""
        if env is None:
            load_dotenv(Path.cwd() / ".env")
            env = dict(os.environ)
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
        )
