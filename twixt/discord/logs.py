"""Structured logging: one line per record, `key=value` fields, with the standard library.

Fields come from `extra={...}` on a logging call, so any module logs context (user, guild,
channel, command) without a logging dependency: `log.info("turn", extra={"user_id": 1})`.
"""

from __future__ import annotations

import json
import logging
import sys

# The attributes every LogRecord has; anything else on a record came in through `extra`.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class KeyValueFormatter(logging.Formatter):
    """`ts=… level=INFO logger=twixt.discord.respond msg="command failed" user_id=42`."""

    def format(self, record: logging.LogRecord) -> str:
        fields = {
            "ts": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        line = " ".join(f"{key}={_value(value)}" for key, value in fields.items())
        if record.exc_info:
            # The traceback stays in the log (never in a user's message), indented under it.
            trace = self.formatException(record.exc_info)
            line += "\n" + "\n".join("  " + part for part in trace.splitlines())
        return line


def _value(value: object) -> str:
    text = str(value)
    if text and not any(ch.isspace() or ch in '"=' for ch in text):
        return text
    return json.dumps(text, ensure_ascii=False)


def configure(level: str) -> None:
    """Send every logger (ours and discord.py's) to standard error as key=value lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(KeyValueFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py's gateway chatter at DEBUG drowns everything else.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))
