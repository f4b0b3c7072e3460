"""What a front end that draws the board itself needs from a game's view to draw it as the
pictures do: the winning chain, the viewer's palette, the colours of every theme."""

from __future__ import annotations

from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CHANNEL, asking
from tests.typed import enter
from twixt.rendering.themes import PaletteName, ThemeName, theme
from twixt.rules import Colour
from twixt.service import TwixtService
from twixt.service import commands as cmd


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


async def test_the_views_of_a_page_move_show_each_player_the_palette_the_move_read(
        service, storage, monkeypatch):
    """A page's move reads its player's preferences (auto-link, confirm), and with them, in
    the same statement, the other player's once this process has written the game: the
    views of that turn show each their own palette without reading them again. The first
    move (the game not yet written here) reads the mover's alone, and its views read both."""
    await start_game(service, size="24", swap="no")
    await service.preferences.user_settings(asking(BOB), {"palette": "colour-blind"})
    game = (await service.seat_in_channel(CHANNEL, ALICE.id))[0]
    reads: list[list[int]] = []
    real = storage.users_prefs

    async def counted(user_ids):
        reads.append(sorted(user_ids))
        return await real(user_ids)

    monkeypatch.setattr(storage, "users_prefs", counted)
    both = [ALICE.id, BOB.id]
    for seat, text, move_read, views_read in ((0, "C3", [], [both]), (1, "F6", [both], []),
                                              (0, "I9", [both], []), (1, "L12", [both], [])):
        request = await service.seat_request(game, seat)
        before = len(reads)
        reply = await service.answer(request, cmd.of_control("move", game, text), {})
        assert reply.refused is None, reply.plain
        moved = len(reads)
        version = (await service.live_versions([game]))[game]
        views = await service.game_views(game, [(0, "en"), (1, "en")], version)
        assert [view.palette for view in views] == ["normal", "colour-blind"]
        assert (reads[before:moved], reads[moved:]) == (move_read, views_read)
