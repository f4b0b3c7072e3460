"""Playing tournaments quickly in tests: entrants, the tournament's games, and results by
resignation (or a claim on time), each through the service as players would."""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from tests.service.people import asking
from tests.typed import enter
from twixt.service import ButtonKind, Reply, TwixtService, User
from twixt.storage import Storage, TournamentGame

#: the players of the tournament tests, strongest (lowest id) first
PLAYERS = tuple(User(200 + i, f"p{i}") for i in range(1, 17))


def tournament_id_of(reply: Reply) -> int:
    """The tournament an announcement is for: its Join button's target."""
    (button,) = [b for b in reply.buttons if b.kind is ButtonKind.JOIN_TOURNAMENT]
    return button.target


async def open_games(storage: Storage, tournament_id: int) -> list[TournamentGame]:
    """The tournament's games opened and not yet decided."""
    return [g for g in await storage.tournament_games(tournament_id, 10_000)
            if g.game_id is not None and g.score is None]


async def lose(service: TwixtService, loser: User, game: TournamentGame) -> Reply:
    """`loser` resigns the tournament game in its thread."""
    assert game.game_id is not None
    stored = await service.desk.storage.get_game(game.game_id)
    return await enter(service, asking(loser, stored.channel_id), "resign yes")


def user(entrant: int) -> User:
    return next(p for p in PLAYERS if p.id == entrant)


async def play_out(service: TwixtService, tournament_id: int) -> list[Reply]:
    """Every open game of the tournament decided: the stronger player (lower id) wins. Returns
    what the service said."""
    said = []
    for game in await open_games(service.desk.storage, tournament_id):
        assert game.black is not None
        loser = user(max(game.red, game.black))
        said.append(await lose(service, loser, game))
    return said


def picture(data: bytes | None) -> Image.Image:
    """A posted PNG, decoded (it must be one)."""
    assert data is not None and data.startswith(b"\x89PNG")
    image = Image.open(BytesIO(data))
    image.load()
    return image


def everything(replies: list[Reply]) -> list[Reply]:
    return [message for reply in replies for message in reply.all_messages()]
