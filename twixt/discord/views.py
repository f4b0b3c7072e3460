"""Buttons under the bot's messages that keep working after a restart.

discord.py rebuilds a `TwixtButton` from any old message through `DynamicItem` (registered at
start with `client.add_dynamic_items`). A press is handed to the client that owns the service
(`ButtonClient`), found through `interaction.client` rather than an import, so this module
needs nothing of the reply pipeline.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from twixt.discord.buttons import (
    PICKER_TEMPLATE,
    TEMPLATE,
    button_of,
    custom_id,
    picker_id,
    picker_of,
    style_of,
)
from twixt.language import unmarked
from twixt.service import Button, Picker, PickStep

#: the most options Discord takes in one select
MAX_OPTIONS = 25


class ButtonClient(Protocol):
    """The client (`app.TwixtBot`) that answers button presses."""

    async def press_button(self, interaction: discord.Interaction, button: Button) -> None:
        """Answer a press of `button`."""
        ...

    async def use_picker(self, interaction: discord.Interaction, picker: Picker,
                         chosen: str) -> None:
        """Answer a step of the move picker: `picker`'s control gave `chosen`."""
        ...


class TwixtButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One of the service's buttons; a press goes to the client's `press_button`."""

    def __init__(self, button: Button) -> None:
        # a label reads no markdown: what users typed in it shows without marks
        super().__init__(discord.ui.Button(label=unmarked(button.label),
                                           custom_id=custom_id(button), style=style_of(button)))
        self.button = button

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: Any) -> TwixtButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        button = button_of(match.string, label or "")
        assert button is not None  # discord.py matched our template already
        return cls(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cast(ButtonClient, interaction.client).press_button(interaction, self.button)


class PickerSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=PICKER_TEMPLATE.replace("col|row|links|place", "col|row|links")):
    """A select of the move picker (a column, a row, links); its choice goes to the client's
    `use_picker`. Rebuilt from the custom id alone, like `TwixtButton`; the Place button is
    a `PickerPlace`."""

    def __init__(self, picker: Picker, part: int | None = None,
                 choices: tuple[str, ...] = ()) -> None:
        links = picker.step is PickStep.LINKS
        label = picker.label if part is None or not choices else (
            f"{picker.label} {choices[0]}–{choices[-1]}")
        super().__init__(discord.ui.Select(
            custom_id=picker_id(picker, part), placeholder=unmarked(label)[:150],
            min_values=0 if links else 1, max_values=max(1, len(choices)) if links else 1,
            options=[discord.SelectOption(label=choice, value=choice) for choice in choices]
            or [discord.SelectOption(label="-", value="-")]))
        self.picker = picker

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: Any) -> PickerSelect:
        picker = picker_of(match.string)
        assert picker is not None  # discord.py matched our template already
        return cls(picker)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [str(value) for value in self.item.values]
        picker = self.picker
        match picker.step:
            case PickStep.ROW:
                chosen = picker.chosen + "".join(values[:1])
            case PickStep.LINKS:
                chosen = f"{picker.chosen} link {' '.join(values)}" if values else picker.chosen
            case _:
                chosen = "".join(values[:1])
        await cast(ButtonClient, interaction.client).use_picker(interaction, picker, chosen)


class PickerPlace(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=PICKER_TEMPLATE.replace("col|row|links|place", "place")):
    """The picker's Place button: plays the command its custom id carries."""

    def __init__(self, picker: Picker) -> None:
        super().__init__(discord.ui.Button(label=unmarked(picker.label)[:80],
                                           custom_id=picker_id(picker),
                                           style=discord.ButtonStyle.success))
        self.picker = picker

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: Any) -> PickerPlace:
        picker = picker_of(match.string)
        assert picker is not None
        return cls(picker)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cast(ButtonClient, interaction.client).use_picker(
            interaction, self.picker, self.picker.chosen)


def picker_items(picker: Picker) -> list[discord.ui.Item[Any]]:
    """A picker's controls: the Place button, or its choices in selects of at most 25
    options each (a 48-row board's rows in two)."""
    if picker.step is PickStep.PLACE:
        return [PickerPlace(picker)]
    chunks = [picker.choices[at:at + MAX_OPTIONS]
              for at in range(0, len(picker.choices), MAX_OPTIONS)]
    if len(chunks) == 1:
        return [PickerSelect(picker, None, chunks[0])]
    return [PickerSelect(picker, part, chunk) for part, chunk in enumerate(chunks)]


def buttons_view(buttons: tuple[Button, ...], pickers: tuple[Picker, ...] = ()
                 ) -> discord.ui.View:
    """A view of the reply's picker and buttons, the picker's selects first (a select fills
    a row); no timeout, since the controls outlive the process."""
    view = discord.ui.View(timeout=None)
    for picker in pickers:
        for item in picker_items(picker):
            view.add_item(item)
    for button in buttons:
        view.add_item(TwixtButton(button))
    return view
