"""The board message in Components V2 (`IS_COMPONENTS_V2`, 1 << 15): one container — the
status as a text display, the picture in a media gallery (`attachment://board.png`), any
further file, then the move picker and the buttons — whose accent is the colour of the
player to move.

Discord's rules for such a message (docs/components/reference): no `content` and no
`embeds` beside the flag, which an edit cannot take away; 40 components at most, nested ones
counted; an attachment shows only where a component names it; the text displays hold 4,000
characters in all. A board's text is a reply's (under 2,000), so it always fits.

Each board is stamped with the number of turns of the position it shows (`GameView.turns`),
as the container's `id` — the one field of a component that Discord returns with every
press and that no one sees. A press under a board whose game has played or taken back a turn
since is answered at once, privately, that the board is old (`is_old`), without acting. An
offer made or answered changes the game's live version but not its position, so a board
stays current through it (its picker still plays). The stamp is read just after the board
was made, so a turn in between can make an old board look current, never the other way: such
a press then reaches the service, whose picker checks the version of the position itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from twixt.discord.buttons import button_of, picker_of
from twixt.discord.views import PickerSelect, TwixtButton, picker_items
from twixt.language import message
from twixt.rules import Colour
from twixt.service import Button, ButtonKind, Picker, Reply, ServiceError, TwixtService

#: the name the board's picture travels under, and how a component shows it
BOARD_FILE = "board.png"
#: the accent bar of a board: the colour of the player to move (the board's own inks)
ACCENTS = {Colour.RED: 0xD0262C, Colour.BLACK: 0x202022}
#: the buttons whose target is the game under whose board they are
_GAME_BUTTONS = (ButtonKind.RESIGN, ButtonKind.OFFER_DRAW)
#: buttons a row of Discord's
_ROW = 5
OLD_BOARD = message("This board is old: the game has moved on since. Use the newest board.")


class ServiceClient(Protocol):
    """The client (`app.TwixtBot`) that owns the service."""

    service: TwixtService


@dataclass(frozen=True)
class Look:
    """What a board shows beside its reply: the accent of the player to move (None: nobody
    is to move) and the number of turns of the position it was drawn for (the stamp)."""

    accent: int | None = None
    turns: int | None = None


#: a board's look when nobody is to move, or none is known
NO_LOOK = Look()


def game_of(reply: Reply) -> int | None:
    """The game whose board a reply carries, by its controls (None: a board without any,
    a finished game's)."""
    if reply.image is None:
        return None
    if reply.pickers:
        return reply.pickers[0].game_id
    return next((b.target for b in reply.buttons if b.kind in _GAME_BUTTONS), None)


async def look_of(service: TwixtService, reply: Reply) -> Look:
    """The accent and stamp of a reply's board, from the game's view now; none for a reply
    that is no board with controls, or a game the service cannot show."""
    game_id = game_of(reply)
    if game_id is None:
        return NO_LOOK
    try:
        view = await service.game_view(game_id)
    except ServiceError:
        return NO_LOOK
    seat = None if view.to_move is None else view.seats[view.to_move]
    return Look(None if seat is None else ACCENTS[seat.colour], view.turns)


def board_view(reply: Reply, text: str, look: Look) -> discord.ui.LayoutView:
    """The board's message as one container: text, picture, files, picker, buttons."""
    # a component id of 0 is Discord's "none given": the stamp is the turns plus one
    container: discord.ui.Container[Any] = discord.ui.Container(
        accent_colour=look.accent, id=None if look.turns is None else look.turns + 1)
    container.add_item(discord.ui.TextDisplay(text))
    container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
        f"attachment://{BOARD_FILE}")))
    for attachment in reply.attachments:
        container.add_item(discord.ui.File(f"attachment://{attachment.filename}"))
    for row in control_rows(reply.pickers, reply.buttons):
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def control_rows(pickers: tuple[Picker, ...], buttons: tuple[Button, ...]
                 ) -> list[discord.ui.ActionRow[Any]]:
    """The picker's selects a row each, then its Place button and the buttons five a row,
    as a classic view lays them out."""
    items: list[discord.ui.Item[Any]] = [item for picker in pickers
                                          for item in picker_items(picker)]
    selects = [item for item in items if isinstance(item, PickerSelect)]
    pressed = [item for item in items if item not in selects]
    pressed += [TwixtButton(button) for button in buttons]
    rows: list[discord.ui.ActionRow[Any]] = [discord.ui.ActionRow(select) for select in selects]
    rows += [discord.ui.ActionRow(*pressed[at:at + _ROW]) for at in range(0, len(pressed), _ROW)]
    return rows


def stamp_of(pressed: discord.Message | None) -> tuple[int, int] | None:
    """The game and the turns of the position a pressed board shows, from its container's
    id and its controls' custom ids; None for a message that is no stamped board."""
    if pressed is None:
        return None
    for component in pressed.components:
        if isinstance(component, discord.components.Container) and component.id:
            game_id = next((game for game in map(_game_of_id, _custom_ids(component))
                            if game is not None), None)
            if game_id is not None:
                return game_id, component.id - 1
    return None


def _custom_ids(component: Any) -> Iterator[str]:
    custom_id = getattr(component, "custom_id", None)
    if isinstance(custom_id, str):
        yield custom_id
    for child in getattr(component, "children", ()) or ():
        yield from _custom_ids(child)


def _game_of_id(custom_id: str) -> int | None:
    picker = picker_of(custom_id)
    if picker is not None:
        return picker.game_id
    button = button_of(custom_id)
    return button.target if button is not None and button.kind in _GAME_BUTTONS else None


async def is_old(interaction: discord.Interaction) -> bool:
    """Whether the board pressed shows a position the game has moved on from (a turn
    played or taken back since); False for anything that is no stamped board."""
    found = stamp_of(interaction.message)
    if found is None:
        return False
    game_id, turns = found
    try:
        view = await service_of(interaction.client).game_view(game_id)
    except ServiceError:
        return False  # the service says why, in the press's own answer
    return view.turns != turns


def service_of(client: discord.Client) -> TwixtService:
    """The service of the client (`app.TwixtBot`) that owns it."""
    return cast(ServiceClient, client).service
