"""The terminal front end: `twixt play` (the table) and `twixt export`, over the real database."""

from twixt.terminal.cli import export, play
from twixt.terminal.table import TerminalTable, name_id

__all__ = ["TerminalTable", "export", "name_id", "play"]
