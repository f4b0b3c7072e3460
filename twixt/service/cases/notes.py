"""`note` and `notes`: private notes on a game, seen only by the one who wrote them.

Anyone who may see a game (its channel's members, its players from anywhere in the server)
may keep notes on it, in play or over; they are kept beside the game, never in it, so no
record, export or replay holds them. A note is one line (a slash command's option is one
line anyway), at most `MAX_NOTE` characters, and one keeps at most `MAX_NOTES` a game.
"""

from __future__ import annotations

from twixt.language import Translation, code
from twixt.rules import visible
from twixt.service import commands as cmd
from twixt.service.commands.your_games import MAX_NOTE
from twixt.service.desk.desk import Desk
from twixt.service.errors import LimitError, MalformedError
from twixt.service.model import Reply, Request, check_page, require_private
from twixt.storage import PrivateStore, StoredNote

MAX_NOTES = 50
#: characters of notes on one page: a page stays within a Discord message (2,000), with room
#: for the header and for Discord's escape of every mention in them (a character after @)
PAGE_CHARACTERS = 1500


class Notebook:
    """Keeping, showing and clearing one's notes."""

    def __init__(self, desk: Desk, store: PrivateStore) -> None:
        self._desk = desk
        self._store = store

    @cmd.handles(cmd.Note)
    async def note(self, request: Request, text: str, game_id: int | None = None) -> Reply:
        """Keep a note on a game: the channel's current or last one, or game `game_id`."""
        require_private(request, "/twixt note")
        # kept as it shows: without a direction change (U+202E) or any invisible character
        line = " ".join(visible(text).split())
        if not line:
            raise MalformedError("write note TEXT, like note E5 blocks his bridge")
        if len(line) > MAX_NOTE:
            raise LimitError("a note is at most {most} characters; this one has {length}",
                             most=MAX_NOTE, length=len(line))
        desk = self._desk
        stored = await desk.chosen_game(request, game_id)
        kept = await self._store.add_note(stored.id, request.user.id, line, most=MAX_NOTES,
                                           now=desk.clock())
        if kept is None:
            raise LimitError("you have {most} notes on game {game} already: notes clear "
                             "removes them", most=MAX_NOTES, game=stored.id)
        return Reply(request.tr("Note {number} kept on game {game}; only you see it "
                                "(`notes`).", number=kept.number, game=stored.id),
                     ephemeral=True)

    @cmd.handles(cmd.Notes)
    async def notes(self, request: Request, game_id: int | None = None, page: int = 1,
                    clear: bool = False) -> Reply:
        """A page of one's notes on a game, oldest first; or, with `clear`, none any more."""
        require_private(request, "/twixt notes")
        check_page(page)
        desk = self._desk
        stored = await desk.chosen_game(request, game_id)
        tr = request.tr
        if clear:
            cleared = await self._store.clear_notes(stored.id, request.user.id)
            return Reply(tr.plural("{n} note on game {game} cleared.",
                                   "{n} notes on game {game} cleared.", cleared, game=stored.id),
                         ephemeral=True)
        found = await self._store.notes(stored.id, request.user.id, limit=MAX_NOTES)
        if not found:
            return Reply(tr("You have no notes on game {game}: keep one with note TEXT.",
                            game=stored.id), ephemeral=True)
        pages = _pages([_line(note, tr) for note in found])
        lines = [tr("**Your notes on game {game}** (page {page} of {pages})", game=stored.id,
                    page=page, pages=len(pages))]
        lines += pages[page - 1] if page <= len(pages) else [tr("None on this page.")]
        if page < len(pages):
            lines.append(tr("More: notes #{game} page {page}", game=stored.id, page=page + 1))
        return Reply("\n".join(lines), ephemeral=True)


def _line(note: StoredNote, tr: Translation) -> str:
    """`3. 2026-01-02 14:05 UTC: `text`` — the text in a code span, so that nothing in it
    formats, links or pings (a backtick in it, which would end the span, is shown as ')."""
    when = note.written_at.strftime("%Y-%m-%d %H:%M UTC")
    text = note.text.replace("`", "'")
    return tr("{number}. {when}: {text}", number=note.number, when=when, text=code(text))


def _pages(lines: list[str]) -> list[list[str]]:
    """Lines in pages of at most `PAGE_CHARACTERS` (a longer line alone on its page)."""
    pages: list[list[str]] = [[]]
    for line in lines:
        if pages[-1] and sum(map(len, pages[-1])) + len(line) > PAGE_CHARACTERS:
            pages.append([])
        pages[-1].append(line)
    return pages
