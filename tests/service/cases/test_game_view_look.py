"""What a front end that draws the board itself needs from a game's view to draw it as the
pictures do: the winning chain, the viewer's palette, the colours of every theme."""

from __future__ import annotations

from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CHANNEL, asking
from tests.typed import enter
from twixt.rendering.themes import PaletteName, ThemeName, theme
from twixt.rules import Colour
from twixt.service import TwixtService


async def test_a_won_game_shows_its_winning_chain_and_each_player_their_palette(service):
    await start_game(service, size="5", swap="no")
    for user, move in ((ALICE, "C1"), (BOB, "A2"), (ALICE, "D3 link C1"), (BOB, "A4")):
        await enter(service, asking(user), move)
    game = (await service.seat_in_channel(CHANNEL, ALICE.id))[0]
    await service.preferences.user_settings(asking(BOB), {"palette": "colour-blind"})
    playing = await service.game_view(game, user_id=ALICE.id)
    assert playing.chain_holes == frozenset() and playing.chain_links == frozenset()
    await enter(service, asking(ALICE), "C5 link D3")
    won = await service.game_view(game, user_id=ALICE.id)
    assert sorted(str(hole) for hole in won.chain_holes) == ["C1", "C5", "D3"]
    assert sorted(str(link) for link in won.chain_links) == ["C1-D3", "D3-C5"]
    assert won.palette == "normal"
    assert (await service.game_view(game, user_id=BOB.id)).palette == "colour-blind"
    assert (await service.game_view(game)).palette == "normal"  # an onlooker's
    earlier = await service.game_view(game, user_id=BOB.id, step=4)
    assert earlier.chain_holes == frozenset()  # the chain of the position shown


def test_the_board_colours_are_the_pictures_in_every_theme_and_palette(service: TwixtService):
    colours = service.board_colours()
    for name in ThemeName:
        for palette in PaletteName:
            picture, given = theme(name, palette), colours[name.value][palette.value]
            assert given["plate"] == "#{:02x}{:02x}{:02x}".format(*picture.plate)
            assert given["red-fill"] == "#{:02x}{:02x}{:02x}".format(
                *picture.ink[Colour.RED].fill)
            assert given["black-tint"] == "#{:02x}{:02x}{:02x}".format(
                *picture.tint[Colour.BLACK])
            assert given["black-shape"] == ("square" if palette is PaletteName.COLOUR_BLIND
                                            else "round")
