"""The terminal front end: `twixt play` (the table) and `twixt export`, over the real database."""

from bot.terminal.cli import export, play
from bot.terminal.table import TerminalTable, name_id

__all__ = ["TerminalTable", "export", "name_id", "play"]
