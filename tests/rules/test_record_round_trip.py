"""Any game a format can hold, with any names a game allows, is written, turned into the
file's bytes, read back, and is the same game — in every format, finished games included."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from twixt.rules import Game
from twixt.rules.records import decode, encode, read, write

#: names as a game takes them: no `: , #`, controls or invisible characters, spaces folded,
#: any other character
names = (st.text(alphabet=st.characters(blacklist_characters=":,#",
                                        blacklist_categories=["Cc", "Cf", "Cs"]),
                 min_size=1, max_size=16)
         .map(lambda name: " ".join(name.split())).filter(bool))
pairs = st.tuples(names, names).filter(lambda p: p[0].casefold() != p[1].casefold())

#: what each format holds: its rules, whether every peg links all it can, its sizes
FORMATS = {
    "transcript": ("classic", False, (5, 12, 24, 48)),
    "lg": ("pp", False, (5, 12, 24, 27, 30, 48)),
    "t1": ("classic", True, (5, 12, 24, 48)),
}


def _game(fmt: str, players: tuple[str, str], size: int, seed: int, turns: int,
          swap: bool, ending: str) -> Game:
    rules, link_all, _sizes = FORMATS[fmt]
    rng = random.Random(seed)
    game = Game(players, size=size, rules=rules, swap=True)
    for number in range(turns):
        if game.is_over:
            break
        if number == 1 and swap:
            game.play("swap")
            continue
        hole = rng.choice(game.legal_placements())
        game.play(f"{hole} link all" if link_all or rng.random() < 0.5 else str(hole))
    if not game.is_over and ending == "resign":
        game.play("resign")
    elif not game.is_over and ending == "draw":
        offerer = game.seat_to_move
        assert offerer is not None
        game.play("offer draw")
        game.play("accept draw", by=game.players[1 - offerer])
    elif not game.is_over and ending == "time" and fmt != "lg":  # LG cannot say a time loss
        game.play("timeout")
    return game


@settings(max_examples=200, deadline=None)
@given(fmt=st.sampled_from(sorted(FORMATS)), players=pairs, data=st.data(),
       seed=st.integers(0, 2**32), turns=st.integers(0, 40), swap=st.booleans(),
       ending=st.sampled_from(["", "resign", "draw", "time"]))
def test_a_game_written_and_read_back_is_the_same_game(fmt, players, data, seed, turns, swap,
                                                       ending):
    size = data.draw(st.sampled_from(FORMATS[fmt][2]))
    game = _game(fmt, players, size, seed, turns, swap, ending)
    again = read(decode(encode(write(game, fmt), fmt), fmt), fmt)
    assert again.snapshot() == game.snapshot()
