"""The terminal front end: the table (`twixt play`), which plays `name: command` lines
through the service and prints what a channel would show; the composition root
(`twixt.app.table`) opens the database and sets the table up."""

from twixt.terminal.table import TerminalTable, name_id

__all__ = ["TerminalTable", "name_id"]
