"""The board's colours as the page's style sheet (`/static/colours.css`): the pictures' own
(`TwixtService.board_colours`, from the rendering's themes), so that the page draws the board
as the PNG does and no colour of it is copied by hand. Light or dark as the reader's system
prefers; the player's palette by the root's `data-palette` (the view's `palette`), which the
page sets."""

from __future__ import annotations

from collections.abc import Mapping

#: the file's name under /static/
COLOURS = "colours.css"

Colours = Mapping[str, Mapping[str, Mapping[str, str]]]


def colours_css(colours: Colours) -> str:
    """The style sheet of `colours` (by theme, palette and name): each colour a custom
    property (`--plate`, `--red-fill`, …)."""
    def rule(selector: str, named: Mapping[str, str]) -> str:
        properties = " ".join(f"--{name}: {value};" for name, value in named.items())
        return f"{selector} {{ {properties} }}"

    palette = ':root[data-palette="colour-blind"]'
    light, dark = colours["light"], colours["dark"]
    return "\n".join([
        "/* made by the server from twixt/rendering/themes.py */",
        rule(":root", light["normal"]), rule(palette, light["colour-blind"]),
        "@media (prefers-color-scheme: dark) {",
        rule(":root", dark["normal"]), rule(palette, dark["colour-blind"]), "}", ""])
