"""What follows a turn (`Desk.turn_played`): each subject subscribes in its own constructor
(the service builds them all together, when one is first needed, before any turn),
in the order the pipeline needs (a stored reply first, so that the clocks and the engine
player hear of the last turn played), and hears a turn once it is stored, while the
channel's lock is held, before the reply is drawn; a takeback is heard too."""

from __future__ import annotations

from tests.service.helpers import start_game
from tests.service.people import ALICE, BOB, CHANNEL, asking
from tests.typed import enter
from twixt.service.cases.clocks import Clocks
from twixt.service.cases.conditionals import Conditionals
from twixt.service.cases.engine_player import EnginePlayer
from twixt.service.desk.after_turn import Played


def test_the_subjects_subscribe_in_the_pipelines_order(service):
    assert service.desk.turn_played == []  # no subject built until one is needed
    service.my_games  # noqa: B018 (one subject asked for: every subject built)
    owners = [type(hook.__self__) for hook in service.desk.turn_played]  # type: ignore[attr-defined]
    assert owners == [Conditionals, Clocks, EnginePlayer]


async def test_the_first_command_builds_every_subject_before_it_runs(service):
    await start_game(service, swap="no")
    owners = [type(hook.__self__) for hook in service.desk.turn_played]  # type: ignore[attr-defined]
    assert owners == [Conditionals, Clocks, EnginePlayer]


async def test_a_turn_is_heard_once_stored_under_the_lock_and_before_the_reply(service,
                                                                              storage):
    await start_game(service, swap="no")
    heard: list[tuple[str, bool, int, bool]] = []
    steps: list[str] = []
    render = service.desk.render

    async def listener(played: Played) -> None:
        stored = await storage.active_game(CHANNEL)
        assert stored is not None
        heard.append((played.turn.text, played.took_back, stored.version,
                      service.desk.lock(CHANNEL).locked()))
        steps.append("heard")

    async def drawn(*args, **kwargs):
        steps.append("drawn")
        return await render(*args, **kwargs)

    service.desk.turn_played.append(listener)
    service.desk.render = drawn  # type: ignore[method-assign]
    reply = await enter(service, asking(ALICE), "K10")
    assert reply.plain.startswith("**alice** (Red): `K10`")
    assert heard == [("K10", False, 1, True)]
    assert steps == ["heard", "drawn"]  # the reply's board after what follows the turn
    await enter(service, asking(ALICE), "takeback")  # a request: no turn
    assert len(heard) == 1
    await enter(service, asking(BOB), "accept takeback")
    assert heard[1] == ("K10", True, 2, True)
    assert steps == ["heard", "drawn", "heard", "drawn"]
