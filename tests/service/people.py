"""The people and places of the service's tests, and a request of one of them."""

from __future__ import annotations

from twixt.service import Request, User

ALICE, BOB, CAROL, DAVE = (User(i, n) for i, n in [(11, "alice"), (12, "bob"), (13, "carol"),
                                                   (14, "dave")])
GUILD, CHANNEL = 1, 100


def asking(user: User, channel: int = CHANNEL, manager: bool = False,
           server_manager: bool = False, locale: str = "en") -> Request:
    """A request of `user` in `channel` of the test guild; a manager of the channel, or
    of the whole server; answered in `locale`."""
    return Request(GUILD, channel, user, can_manage=manager or server_manager,
                   can_manage_server=server_manager, locale=locale)
