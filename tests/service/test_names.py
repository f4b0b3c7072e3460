"""Names: kept exactly as records can hold them, nothing invisible in them, and nobody who is
not the bot named like it."""

from __future__ import annotations

import pytest

from tests.service.people import ALICE, BOB, CHANNEL, asking
from tests.typed import enter
from twixt.rules.records import decode, read
from twixt.service import TwixtService, User, build_options

#: quotes, brackets and letters of several scripts, all of which a record holds
KEPT = [']x[', 'say "hi"', "Ωμέγα", "李小龍", "[ann]", "Zoë ʕ•ᴥ•ʔ"]


@pytest.mark.parametrize("name", KEPT)
async def test_a_name_comes_back_exactly_from_every_record_format(service: TwixtService, name):
    player = User(21, name)
    assert player.name == name
    await service.challenges.challenge(asking(player), BOB, build_options(swap="no",
                                                                          rules="pp"))
    await service.challenges.accept(asking(BOB))
    await enter(service, asking(player), "K10")
    export = await service.records.export(asking(player))
    for attachment in export.attachments:
        fmt = {"twixt": "transcript", "tsgf": "lg", "T1": "t1"}[attachment.filename.split(".")[-1]]
        assert read(decode(attachment.data, fmt), fmt).players == (name, "bob"), fmt


@pytest.mark.parametrize(("typed", "kept"), [
    ("al\u200bice", "alice"),            # zero width space
    ("\u202eecila", "ecila"),            # right-to-left override
    ("ali\u2066ce\u2069", "alice"),      # isolates
    ("\ufeffalice\u200d\u2060", "alice"),  # byte-order mark, joiners
    ("al\u00adice\u200e", "alice"),      # soft hyphen, left-to-right mark
    ("al\x07i\x1bce", "al i ce"),        # controls are spaces
    ("\u200dann\u200c", "ann"),          # joiners that join nothing
    ("👨\u200d👩\u200d👧 Sam", "👨\u200d👩\u200d👧 Sam"),  # but an emoji family stays one
])
def test_invisible_and_direction_changing_characters_never_reach_a_name(typed, kept):
    assert User(21, typed).name == kept


async def test_invisible_characters_never_reach_an_tournament_name(service: TwixtService, storage):
    manager = asking(User(1, "td"), manager=True)
    await enter(service, manager, "tournament create Cup\u200b\u202e 2026 format roundrobin")
    [tournament] = await storage.tournaments(manager.guild_id)
    assert tournament.name == "Cup 2026"


@pytest.mark.parametrize("typed", ["bot", "Bot", "BOT ", "bot (level 3)", "Bot(Level 3)",
                                   "b o t", "ｂｏｔ", "bot\u200b (level 5)", "bot (level 3) 2",
                                   "bot 2 (level 3)",
                                   "**bot**", "b\u043et", "\u0412\u041e\u0422",
                                   "\u0392\u039f\u03a4 (l\u03b5\u03bd\u0435l 2)"])
def test_a_person_named_like_the_bot_is_marked_as_a_person(typed):
    name = User(21, typed).name
    assert name.endswith(" (person)") and len(name) <= 32


@pytest.mark.parametrize("typed", ["robot", "bots", "botanist", "abbot", "bob",
                                   "\u0432\u043e\u0442\u0435\u0440"])
def test_names_that_merely_contain_bot_are_left_alone(typed):
    assert User(21, typed).name == typed


async def test_nobody_sits_at_a_table_or_stands_in_a_record_as_the_bot(service: TwixtService,
                                                                       storage):
    poser = User(21, "bot (level 3)")
    await service.challenges.challenge(asking(poser), BOB, build_options(swap="no"))
    await service.challenges.accept(asking(BOB))
    stored = await storage.active_game(CHANNEL)
    assert [seat.name for seat in stored.seats] == ["bot (level 3) (person)", "bob"]
    export = await service.records.export(asking(poser), "transcript")
    assert '[Players "bot (level 3) (person), bob"]' in export.attachments[0].data.decode()


async def test_an_imported_record_shows_no_player_as_the_bot(service: TwixtService):
    record = b'[Players "bot (level 3), ann"]\nbot (level 3): G6\nann: resign\n'
    reply = await service.records.import_record(asking(ALICE), "g.twixt", record)
    assert "bot (level 3) (person) (Red) wins" in reply.plain.splitlines()[0]
