"""German on the play side: a German asker's challenge, turn, board, status, result, abort,
takeback, refusal and help are German (buttons and the board's caption too), an English
asker's stay English, and a turn is announced in the language of whoever played it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.service.helpers import funnel_refusal, press, start_game, start_team_game
from tests.service.people import ALICE, BOB, CAROL, DAVE, asking
from tests.typed import enter
from twixt.service import ButtonKind, ConflictError, Reply, Request, User, build_options


def de(user: User) -> Request:
    """A request of `user` whose Discord is in German."""
    return asking(user, locale="de")


def labels(reply: Reply) -> list[str]:
    """The buttons of a reply, less the board's own (Offer draw, Resign: `board_labels`)."""
    return [button.label for button in reply.buttons if button.kind not in BOARD_BUTTONS]


#: the buttons under every board where a person is to move
BOARD_BUTTONS = (ButtonKind.OFFER_DRAW, ButtonKind.RESIGN)


async def test_a_german_challenge_and_its_start_are_german(service):
    reply = await service.challenges.challenge(de(ALICE), BOB, build_options(swap="no"))
    assert reply.plain == ("**alice** fordert bob zu TwixT heraus (24×24, klassisch, kein Tausch), "
                          "der Herausforderer spielt Rot und zieht zuerst. bob, nimm an oder "
                          "lehne ab.")
    assert labels(reply) == ["Annehmen", "Ablehnen"]
    started = await service.challenges.accept(de(BOB))
    first, second = started.plain.splitlines()
    assert first == ("Partie 1 läuft: **alice** (Rot) gegen **bob** (Schwarz) — "
                     "24×24, klassisch, kein Tausch.")
    assert second.startswith("alice, du ziehst zuerst (Rot): schreib deinen Zug, z. B. `")


async def test_an_english_challenge_stays_english(service):
    reply = await service.challenges.challenge(asking(ALICE), None, build_options(swap="no"))
    assert reply.plain == ("**alice** challenges anyone here to TwixT (24×24, classic, no swap), "
                          "the challenger plays Red and moves first. Who accepts?")
    assert labels(reply) == ["Accept", "Decline"]


async def test_a_turn_is_announced_in_the_language_of_who_played_it(service):
    await start_game(service, swap="yes")
    german = await enter(service, de(ALICE), "K10; offer draw")
    assert german.plain == ("**alice** (Rot): `K10; offer draw`\nbob (Schwarz) ist am Zug.\n"
                           "Du darfst mit `swap` antworten.\nRot bietet Remis an.")
    assert labels(german) == ["Tauschen", "Remis annehmen", "Remis ablehnen"]
    assert [b.label for b in german.buttons][-1] == "Aufgeben"  # Resign, in German
    english = await enter(service, asking(BOB), "M12")
    assert english.plain == "**bob** (Black): `M12`\nalice (Red) to move."


async def test_the_board_caption_is_in_the_askers_language(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    boards = [await service.turns.board(asking(CAROL, locale=locale)) for locale in ("en", "de")]
    english, german = (Image.open(io.BytesIO(board.image)).convert("RGB") for board in boards)
    assert english.size == german.size and english.tobytes() != german.tobytes()
    assert boards[1].plain.splitlines()[-1] == "bob (Schwarz) ist am Zug."


async def test_status_with_a_clock_in_german(service):
    await start_game(service, swap="no", time="3d")
    await enter(service, asking(ALICE), "K10")
    status = await service.turns.status(de(CAROL))
    assert status.plain.splitlines() == [
        "**Partie 1** — 24×24, klassisch, kein Tausch, 3d pro Zug", "Rot: alice",
        "Schwarz: bob", "Züge: 1 · zuletzt: alice: `K10`",
        "bob (Schwarz) ist am Zug. (noch 3 T. 0 Std.)"]


async def test_resigning_in_german(service):
    await start_game(service, swap="no")
    ask = await service.turns.resign(de(BOB))
    assert (ask.plain, labels(ask)) == (
        "Diese Partie wirklich aufgeben? Drücke Aufgeben, oder tippe `resign yes`.", ["Aufgeben"])
    done = await press(service, de(BOB), ButtonKind.CONFIRM_RESIGN, ask.buttons[0].target)
    assert done.plain == ("**bob** (Schwarz): `resign`\n"
                          "alice (Rot) gewinnt — Schwarz hat aufgegeben.")
    assert labels(done) == ["Revanche"]
    status = await service.turns.status(asking(CAROL))
    assert status.plain.splitlines()[-1] == "alice (Red) wins — Black resigned."


async def test_a_team_wins_and_calls_privilege_in_german(service):
    await start_team_game(service, swap="no")
    reply = await enter(service, de(ALICE), "K10")
    assert labels(reply) == ["Vorrecht"]
    reply = await press(service, de(ALICE), ButtonKind.PRIVILEGE, reply.buttons[0].target)
    assert reply.plain.splitlines()[1:] == ["alice nimmt das Vorrecht: bob wird übersprungen.",
                                           "carol (Rot, Platz 3) ist am Zug."]
    status = await service.turns.status(de(DAVE))
    assert "Rot: alice & carol · Vorrecht genutzt" in status.plain.splitlines()
    assert "Schwarz: bob & dave · Vorrecht verfügbar" in status.plain.splitlines()
    reply = await service.turns.resign(de(CAROL), confirmed=True)
    assert reply.plain.splitlines()[-1] == "bob und dave (Schwarz) gewinnen — Rot hat aufgegeben."


async def test_abort_votes_and_the_abort_in_german(service):
    await start_team_game(service)
    vote = await service.turns.abort(de(ALICE))
    assert vote.plain == ("alice möchte diese Partie abbrechen. Sie wird abgebrochen, wenn auch "
                         "bob, carol, dave darum bitten.")
    for user in (BOB, CAROL):
        await service.turns.abort(asking(user))
    last = await service.turns.abort(de(DAVE))
    assert last.plain == ("Partie 1 (alice und bob und carol und dave) wurde von dave "
                         "abgebrochen; sie zählt für niemanden.")


async def test_takeback_in_german(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    ask = await service.turns.takeback(de(ALICE))
    assert ask.plain == "alice bittet darum, `K10` zurückzunehmen."
    assert labels(ask) == ["Zurücknahme annehmen", "Ablehnen"]
    taken = await service.turns.takeback(de(BOB), "accept")
    assert taken.plain == "`K10` von alice ist zurückgenommen.\nalice (Rot) ist am Zug."


async def test_refusals_are_in_the_askers_language(service):
    await start_game(service, swap="no")
    await enter(service, asking(ALICE), "K10")
    assert await funnel_refusal(enter(service, de(BOB), "K10"), "de") == "K10 ist schon besetzt"
    assert await funnel_refusal(enter(service, asking(BOB), "K10"), "en") == "K10 is already taken"
    assert await funnel_refusal(enter(service, de(CAROL), "M12"), "de") == \
        "du spielst in dieser Partie nicht mit"
    assert await funnel_refusal(service.turns.takeback(de(BOB), "maybe"), "de") == \
        "auf takeback folgt request, accept oder decline, nicht “maybe”"


async def test_a_storage_refusal_is_german_for_a_german_asker(service):
    challenge = await service.challenges.challenge(asking(ALICE), BOB, build_options())
    target = challenge.buttons[0].target
    await service.challenges.accept(asking(BOB))
    again = press(service, de(BOB), ButtonKind.ACCEPT_CHALLENGE, target)
    assert await funnel_refusal(again, "de") == "diese Herausforderung ist schon angenommen"
    with pytest.raises(ConflictError, match=r"^this challenge is already accepted$"):
        await press(service, asking(BOB), ButtonKind.ACCEPT_CHALLENGE, target)


async def test_help_in_german_keeps_the_move_language(service):
    german = (await service.turns.help(de(ALICE))).plain
    assert german.startswith("**TwixT** — verbinde deine beiden Grenzreihen")
    assert "`G6 link E5`" in german and "`offer draw`" in german and "**Befehle:**" in german
    english = (await service.turns.help(asking(ALICE))).plain
    assert english.startswith("**TwixT** — connect your two borders")


async def test_continuing_an_import_in_german_says_who_moves_next(service):
    record = b'[Players "ann, ben"]\n[Swap "no"]\nann: G6\n'
    reply = await service.records.import_record(de(ALICE), "g.twixt", record, BOB)
    assert "der Herausforderer spielt Rot. bob, nimm an oder lehne ab." in reply.plain
    started = await service.challenges.accept(de(BOB))
    first, second = started.plain.splitlines()
    assert first.startswith("Partie 1 läuft, ab einer importierten Stellung (1 Zug): "
                            "**alice** (Rot) gegen **bob** (Schwarz)")
    assert second.startswith("bob, du bist als Nächstes am Zug (Schwarz): schreib deinen Zug")


async def test_a_game_in_its_own_thread_is_announced_in_german(service):
    await service.challenges.challenge(asking(ALICE), BOB, build_options(thread="yes"))
    started = await service.challenges.accept(de(BOB))
    assert started.plain == "Partie 1 beginnt in einem eigenen Thread."
    assert started.followups[0].plain.startswith("Partie 1 läuft: **alice** (Rot) gegen")
