"""How the service logs a failure it survives, one game or one command at a time.

A database that cannot be used (a full disk, a file made read-only or removed) is no bug of
the bot's: whoever runs it needs its cause in one line, not a traceback for each game that
met it. Anything else is a bug, and its traceback is what mends it."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping

from twixt.storage import DatabaseError


def log_failure(log: logging.Logger, what: str, context: Mapping[str, object]) -> None:
    """Log the exception being handled under `what`, with `context`: a `DatabaseError` in
    one line with its cause, anything else with its traceback."""
    error = sys.exc_info()[1]
    if isinstance(error, DatabaseError):
        log.error("%s: %s", what, error, extra=dict(context))
    else:
        log.exception(what, extra=dict(context))
