"""twixt/engine/analysis.py: Red's chance position by position, the engine's preference, the swings.

The engine's search is another branch's work; these tests hold the analysis to `think`'s
interface: most use the engine as it is, some give `think` known answers (`scripted`) to
check how they become Red's chances and swings.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.rules.helpers import count_history_reads
from twixt.engine import Limit, PlayResult, think
from twixt.engine import analysis as analysis_module
from twixt.engine.analysis import (
    DEEP,
    FULL_SEARCHES,
    MIN_NODES,
    MIN_SECONDS,
    MIN_SWING,
    SWINGS,
    Screen,
    analyze_game,
    budget,
    deep_limit,
    position_limit,
)
from twixt.engine.api import board_nodes, fixed_nodes
from twixt.engine.chance import looks
from twixt.rules import Colour, Game

LIMIT = Limit(nodes=50)
#: Red wins on a 6×6 board by connection with its fourth peg
RED_CONNECTS = ["C1", "A3", "D3", "F3", "C5", "A5", "E6"]
#: a 6×6 game Black wins after Red's third peg D2, two rows behind its first, C4
BLACK_CONNECTS = ["C4", "D4", "D2", "B5", "E4", "F5", "B1", "A3"]


def played(game: Game, moves: list[str]) -> Game:
    for move in moves:
        game.play(move)
    return game


@pytest.fixture
def cheap_deep_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The swings' deeper looks at `DEEP` times a position's nodes, without the floor of the
    budget's `deep_level` (2,500 nodes a search on 8×8, most of an analysis's cost on the
    Python core): for the tests whose point is not the deeper look's size, which
    `test_the_swings_are_judged_again_by_a_deeper_search` and tests/engine/
    test_analysis_budgets.py hold."""
    def deep_limit(limit: Limit, game: Game) -> Limit:
        return Limit(nodes=None if limit.nodes is None else limit.nodes * DEEP)

    monkeypatch.setattr(analysis_module, "deep_limit", deep_limit)


def by_position(monkeypatch: pytest.MonkeyPatch, red_wins: dict[str, float],
                preferred: dict[str, str]) -> list[str]:
    """`think` answers with Red's chance `red_wins[pegs]` (0.5 if not given) and the move
    `preferred[pegs]` (else the last legal hole), `pegs` being the holes with pegs, sorted and
    joined by spaces: a position is worth the same whichever move led to it. Returns the
    positions asked about, in order."""
    asked: list[str] = []

    def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        pegs = " ".join(sorted(str(peg.hole) for peg in game.pegs()))
        asked.append(pegs)
        red = red_wins.get(pegs, 0.5)
        move = preferred.get(pegs, str(game.legal_placements()[-1]))
        win = red if game.colour_to_move is Colour.RED else 1.0 - red
        return PlayResult(move, win, (move,), 1, 0.0)

    monkeypatch.setattr(analysis_module, "think", think)
    return asked


def test_an_empty_game_has_its_start_and_no_moves() -> None:
    result = analyze_game(Game(("alice", "bob"), size=8), LIMIT)
    assert 0.0 <= result.start <= 1.0
    assert (result.moves, result.swings) == ((), ())


@pytest.mark.usefixtures("cheap_deep_looks")
def test_a_move_has_the_engines_choice_and_reds_chance_after_both() -> None:
    game = played(Game(("alice", "bob"), size=8, swap=False), ["D4"])
    report, = analyze_game(game, LIMIT).moves
    assert (report.number, report.colour, report.played) == (1, Colour.RED, "D4")
    assert report.best != "" and report.red_best is not None
    assert 0.0 <= report.red <= 1.0 and 0.0 <= report.red_best <= 1.0


@pytest.mark.usefixtures("cheap_deep_looks")
def test_the_game_is_left_as_it_was() -> None:
    game = played(Game(("alice", "bob"), size=6, rules="pp", swap=False), RED_CONNECTS)
    before = game.snapshot()
    analyze_game(game, LIMIT)
    assert game.snapshot() == before


def test_a_won_game_ends_at_the_winners_certainty_and_the_winning_move_is_no_swing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The winning move left Red certain of the win, better than the engine's choice there:
    it cost nobody anything."""
    by_position(monkeypatch, {}, {})   # an even game until the last move
    game = played(Game(("alice", "bob"), size=6, rules="pp", swap=False), RED_CONNECTS)
    result = analyze_game(game, LIMIT)
    assert result.moves[-1].red == 1.0
    assert [report.red for report in result.moves[:-1]] == [0.5] * 6
    assert result.swings == ()


def test_the_move_that_let_the_winner_in_is_the_swing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Black's sixth move (A5) let Red connect; the engine's move there (D5, in Red's way)
    keeps Black's chance, both judged with Red to move."""
    by_position(monkeypatch, {"A3 A5 C1 C5 D3 F3": 0.95, "A3 C1 C5 D3 D5 F3": 0.4},
                {"A3 C1 C5 D3 F3": "D5"})
    game = played(Game(("alice", "bob"), size=6, rules="pp", swap=False), RED_CONNECTS)
    result = analyze_game(game, LIMIT)
    assert result.swings == (6,)
    swing = result.move(6)
    assert (swing.colour, swing.played, swing.best) == (Colour.BLACK, "A5", "D5")
    assert (swing.red, swing.red_best, swing.loss) == pytest.approx((0.95, 0.4, 0.55))
    assert result.red_before(6) == pytest.approx(0.5)


def test_a_drop_the_engines_own_choice_makes_too_is_no_swing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's move 9: Red's chance fell from 85% before Red's C5 to 36% after it, but
    after the engine's own choice there (D4) it is 36% too: the game was lost before, and C5
    lost nothing. The drop compares a position with Red to move with one with Black to move;
    the loss compares the move with the engine's choice, both with Black to move."""
    by_position(monkeypatch, {"B2 G7": 0.85, "B2 C5 G7": 0.36, "B2 D4 G7": 0.36},
                {"B2 G7": "D4"})
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, LIMIT)
    assert result.move(3).loss == pytest.approx(0.0)
    assert 3 not in result.swings


def test_a_move_the_engine_plays_too_is_never_a_swing(monkeypatch: pytest.MonkeyPatch) -> None:
    by_position(monkeypatch, {"B2 G7": 0.9, "B2 C5 G7": 0.1}, {"B2 G7": "C5"})
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, LIMIT)
    assert (result.move(3).best, result.move(3).loss) == ("C5", 0.0)
    assert 3 not in result.swings


def test_the_largest_losses_of_at_least_ten_points_are_the_swings_largest_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each move against the engine's choice there (the last legal hole, A-something):
    Black's G7 loses .4, Red's C5 .3, Black's F3 .2, Red's D2 .12 and Black's E6 .09 (under
    the bar): the three largest are listed, largest first."""
    after_played = {"B2": 0.5, "B2 G7": 0.9, "B2 C5 G7": 0.3, "B2 C5 F3 G7": 0.7,
                    "B2 C5 D2 F3 G7": 0.38, "B2 C5 D2 E6 F3 G7": 0.59}
    losses = {"B2": 0.4, "B2 G7": 0.3, "B2 C5 G7": 0.2, "B2 C5 F3 G7": 0.12,
              "B2 C5 D2 F3 G7": 0.09}
    preferred = {}
    red_wins = dict(after_played)
    game = Game(("alice", "bob"), size=8, swap=False)
    for move in ["B2", "G7", "C5", "F3", "D2", "E6"]:
        before = " ".join(sorted(str(peg.hole) for peg in game.pegs()))
        if before in losses:
            choice = str(game.legal_placements()[0])
            preferred[before] = choice
            after = " ".join(sorted([*before.split(), choice]))
            mover_red = game.colour_to_move is Colour.RED
            loss = losses[before]
            red_after = after_played[" ".join(sorted([*before.split(), move]))]
            red_wins[after] = red_after + (loss if mover_red else -loss)
        game.play(move)
    by_position(monkeypatch, red_wins, preferred)
    result = analyze_game(game, LIMIT)
    assert [round(result.move(n).loss, 6) for n in range(2, 7)] == [0.4, 0.3, 0.2, 0.12, 0.09]
    assert result.swings == (2, 3, 4)
    assert MIN_SWING == 0.10


def test_a_move_that_looked_better_than_the_engines_choice_is_no_swing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    by_position(monkeypatch, {"B2 C5 G7": 0.8, "B2 D4 G7": 0.3}, {"B2 G7": "D4"})
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, LIMIT)
    assert result.move(3).loss == pytest.approx(-0.5)
    assert result.swings == ()


def test_a_swap_is_a_move_by_the_colour_it_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    """alice's D4, then bob swaps and is Red: the swap left Red (bob) .2 where the engine's
    own choice (E5, bob staying Black) left Red .3, bob .7: the swap lost bob .5."""
    by_position(monkeypatch, {"D4": 0.2, "D4 E5": 0.3}, {"D4": "E5"})
    game = played(Game(("alice", "bob"), size=8), ["D4", "swap", "E6"])
    result = analyze_game(game, LIMIT)
    assert [r.played for r in result.moves] == ["D4", "swap", "E6"]
    swap = result.move(2)
    assert (swap.colour, swap.best, swap.best_colour) == (Colour.RED, "E5", Colour.BLACK)
    assert swap.loss == pytest.approx(0.5)
    assert result.swings[0] == 2


@pytest.mark.usefixtures("cheap_deep_looks")
def test_a_resigned_game_ends_with_the_engines_view_of_the_last_position() -> None:
    game = played(Game(("alice", "bob"), size=8, swap=False), ["D4", "E6", "resign"])
    result = analyze_game(game, LIMIT)
    assert [r.number for r in result.moves] == [1, 2]
    assert 0.0 < result.moves[-1].red < 1.0   # the board itself was not over


@pytest.mark.usefixtures("cheap_deep_looks")
def test_draw_offers_are_not_positions() -> None:
    game = played(Game(("alice", "bob"), size=8, swap=False),
                  ["D4; offer draw", "decline draw", "E6"])
    result = analyze_game(game, LIMIT)
    assert [(r.number, r.played) for r in result.moves] == [(1, "D4; offer draw"), (2, "E6")]


@pytest.mark.usefixtures("cheap_deep_looks")
def test_double_twixt_is_analysed_for_the_team_to_move() -> None:
    game = played(Game(("a", "b", "c", "d"), size=8, rules="pp"), ["D4", "E6", "C3", "F2"])
    result = analyze_game(game, LIMIT)
    assert [(r.number, r.colour) for r in result.moves] == [
        (1, Colour.RED), (2, Colour.BLACK), (3, Colour.RED), (4, Colour.BLACK)]


def test_a_long_game_is_sampled_a_report_covers_several_moves_and_lists_no_swing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_module, "MAX_POSITIONS", 3)
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5", "F3", "D2"])
    result = analyze_game(game, LIMIT)
    assert result.step == 3
    assert [(r.number, r.last, r.played, r.best, r.red_best) for r in result.moves] == [
        (1, 3, "B2, G7, C5", "", None), (4, 5, "F3, D2", "", None)]
    assert result.swings == ()


def test_a_short_game_gives_each_search_the_whole_limit() -> None:
    assert position_limit(Limit(seconds=2.0, nodes=1000), 10) == Limit(seconds=2.0, nodes=1000)


def test_a_long_game_shares_the_budget_down_to_a_floor() -> None:
    shared = position_limit(Limit(seconds=2.0, nodes=1000), FULL_SEARCHES * 4)
    assert shared == Limit(seconds=0.5, nodes=250)
    floor = position_limit(Limit(seconds=0.001, nodes=1), 4 * FULL_SEARCHES)
    assert floor == Limit(seconds=MIN_SECONDS, nodes=MIN_NODES)
    assert position_limit(Limit(nodes=100), 400).seconds is None


@pytest.mark.parametrize("offers", [1, 300])
@pytest.mark.usefixtures("cheap_deep_looks")
def test_the_analysis_goes_back_to_the_start_in_one_pass_over_the_log(monkeypatch, offers):
    # a long log of draw offers and refusals once took a read of the whole log per undo
    game = played(Game(("alice", "bob"), size=8, swap=False), ["D4", "E5"])
    for _ in range(offers):
        game.play("offer draw", by="alice")
        game.play("decline draw", by="bob")
    reads = count_history_reads(monkeypatch)
    result = analyze_game(game, LIMIT)
    assert [r.number for r in result.moves] == [1, 2]
    assert reads[0] <= 3  # the same few whatever the log's length


def test_the_swings_are_judged_again_by_a_deeper_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheap search sees Red's C5 lose .5 against D4; the deeper one sees it drop .2 and,
    against its own choice D4, lose nothing: it is not listed, and its figures are the deeper
    search's."""
    deep = deep_limit(LIMIT, Game(("alice", "bob"), size=8))
    least = board_nodes(fixed_nodes(budget().deep_level), Game(size=8))
    assert deep.nodes == max(LIMIT.nodes * DEEP, least)
    asked: list[tuple[str, int | None]] = []

    def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        pegs = " ".join(sorted(str(peg.hole) for peg in game.pegs()))
        asked.append((pegs, limit.nodes))
        red = {"B2 C5 G7": 0.2, "B2 D4 G7": 0.7}.get(pegs, 0.5)
        if limit.nodes == deep.nodes:   # Red's C5 drops .2 from Red's .6 before it to .4
            red = 0.4 if pegs in ("B2 C5 G7", "B2 D4 G7") else 0.6
        move = "D4" if pegs == "B2 G7" else str(game.legal_placements()[-1])
        win = red if game.colour_to_move is Colour.RED else 1.0 - red
        return PlayResult(move, win, (move,), 1, 0.0)

    monkeypatch.setattr(analysis_module, "think", think)
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, LIMIT)
    # every position (its own choice before a move, its value after), then the position
    # after its choice at the moves whose drops the screen lets through, C5's largest
    deeper = [pegs for pegs, nodes in asked if nodes == deep.nodes]
    assert deeper[:4] == ["", "B2", "B2 G7", "B2 C5 G7"] and deeper[4] == "B2 D4 G7"
    assert (result.move(3).red, result.move(3).red_best) == (0.4, 0.4)
    assert result.first_losses[2] == pytest.approx(0.5) and result.judged[0] == 3
    assert result.drops[2] == pytest.approx(0.2)
    assert result.swings == ()


def deeper_by_position(monkeypatch: pytest.MonkeyPatch, first: dict[str, float],
                       deeper: dict[str, float], preferred: dict[str, str]) -> None:
    """`think` answers with Red's chance `first[pegs]` for a position's search and
    `deeper[pegs]` for the deeper look's (`DEEP` times the nodes; else 0.5 both) and the move
    `preferred[pegs]` at either depth (else the last legal hole)."""
    def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        pegs = " ".join(sorted(str(peg.hole) for peg in game.pegs()))
        red = (deeper if limit.nodes == LIMIT.nodes * DEEP else first).get(pegs, 0.5)
        move = preferred.get(pegs, str(game.legal_placements()[-1]))
        win = red if game.colour_to_move is Colour.RED else 1.0 - red
        return PlayResult(move, win, (move,), 1, 0.0)

    monkeypatch.setattr(analysis_module, "think", think)


@pytest.mark.usefixtures("cheap_deep_looks")
def test_a_move_the_deeper_look_clears_is_not_listed_and_its_largest_loss_is(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first look sees Red's C5 lose .5 against D4 and Black's F3 lose .08 against E3; the
    deeper look clears C5 (D4 is as good) and finds F3 lost .3: F3 is the swing, not C5."""
    deeper_by_position(
        monkeypatch,
        {"B2 C5 G7": 0.2, "B2 D4 G7": 0.7, "B2 C5 F3 G7": 0.5, "B2 C5 E3 G7": 0.42},
        {"B2 C5 G7": 0.45, "B2 D4 G7": 0.45, "B2 C5 F3 G7": 0.6, "B2 C5 E3 G7": 0.3},
        {"B2 G7": "D4", "B2 C5 G7": "E3"})
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5", "F3"])
    result = analyze_game(game, LIMIT)
    assert [round(loss, 6) for loss in result.first_losses[2:]] == [0.5, 0.08]
    assert [round(result.move(n).loss, 6) for n in (3, 4)] == [0.0, 0.3]
    assert result.swings == (4,)


@pytest.mark.usefixtures("cheap_deep_looks")
def test_the_deeper_look_judges_with_its_own_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first look chose E5 after B2 G7 and Red played it; the deeper look would play D4,
    after which Red has .3 more: Red's E5 is the swing, against the deeper look's D4."""
    deeper_by_position(monkeypatch, {}, {"B2 E5 G7": 0.4, "B2 D4 G7": 0.7},
                       {"B2 G7": "E5"})

    def deep_choice(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        answer = think_scripted(game, limit, seed=seed)
        pegs = " ".join(sorted(str(peg.hole) for peg in game.pegs()))
        if pegs == "B2 G7" and limit.nodes == LIMIT.nodes * DEEP:
            return PlayResult("D4", answer.win, ("D4",), 1, 0.0)
        return answer

    think_scripted = analysis_module.think
    monkeypatch.setattr(analysis_module, "think", deep_choice)
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "E5"])
    result = analyze_game(game, LIMIT, screen=Screen(least=-1.0, most=3))
    assert result.first_losses[2] == 0.0
    swing = result.move(3)
    assert (swing.best, swing.loss) == ("D4", pytest.approx(0.3))
    assert result.swings == (3,)


@pytest.mark.usefixtures("cheap_deep_looks")
def test_the_swings_are_the_deeper_looks_largest_losses_on_a_real_game() -> None:
    """With the engine as it is, every move judged by the deeper look (a screen that lets all
    through) gives each move's deeper loss: the analysis lists none the deeper look clears, each
    listed with the deeper look's figures, and the deeper look's largest loss (at least 15
    points here) first."""
    game = played(Game(("alice", "bob"), size=6, rules="pp", swap=False), BLACK_CONNECTS)
    # 200 nodes a position (2,000 the deeper look): the same swing and judgements as at 400,
    # in half the searching (two analyses on the Python core: 4.8 s of CPU against 10 s)
    limit = Limit(nodes=200)
    result = analyze_game(game, limit)
    every = analyze_game(game, limit, screen=Screen(least=-1.0, most=len(BLACK_CONNECTS)))
    # every move but those the deeper look plays too (which cost nothing by it)
    assert sorted(every.judged) == [index + 1 for index, drop in enumerate(every.drops)
                                    if drop is not None]
    assert every.first_losses == result.first_losses
    deeper = {report.number: report.loss if report.number in every.judged else 0.0
              for report in every.moves}
    assert set(result.judged) <= set(deeper)
    assert all(deeper[number] >= MIN_SWING for number in result.swings)
    assert all(result.move(number) == every.move(number) for number in result.judged)
    listed = sorted((n for n in result.judged if deeper[n] >= MIN_SWING),
                    key=lambda n: (-deeper[n], n))[:SWINGS]
    assert result.swings == tuple(listed)
    largest = max(deeper, key=lambda number: deeper[number])
    assert deeper[largest] >= 0.15   # Red's D2 (3): the game's turning point, played out below
    assert result.swings[0] == largest


@pytest.mark.usefixtures("cheap_deep_looks")
def test_the_same_game_analysed_twice_gives_the_same_analysis() -> None:
    # four moves, each judged again by the deeper look and three of them listed as swings
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5", "F3"])
    assert analyze_game(game, LIMIT, seed=3) == analyze_game(game, LIMIT, seed=3)


def test_progress_is_told_in_moves_until_the_deeper_look_is_done(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Red's C5 lost .5 by the first look: the deeper look judges it after the last move's
    searches, and the analysis is told done (3 of 3) only after that look."""
    by_position(monkeypatch, {"B2 C5 G7": 0.2, "B2 D4 G7": 0.7}, {"B2 G7": "D4"})
    scripted = analysis_module.think
    told: list[tuple[int, int]] = []
    when: list[tuple[int, int | None]] = []   # (progress told so far, the search's nodes)

    def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        when.append((told[-1][0] if told else 0, limit.nodes))
        return scripted(game, limit, seed=seed)

    monkeypatch.setattr(analysis_module, "think", think)
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, LIMIT, progress=lambda done, total: told.append((done, total)))
    assert 3 in result.judged
    assert told[-1] == (3, 3) and {total for _, total in told} == {3}
    assert [done for done, _ in told] == sorted({done for done, _ in told})
    assert all(done < 3 for done, nodes in when if nodes != LIMIT.nodes)


def test_a_bound_on_the_whole_analysis_is_shared_among_its_searches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each search takes all the time it is given (a clock of the test's own): the deeper
    look's searches included, the analysis ends within its bound."""
    given: list[float | None] = []
    now = [0.0]

    def think(game: Game, limit: Limit, *, seed: int = 0) -> PlayResult:
        given.append(limit.seconds)
        now[0] += limit.seconds or 0.0
        move = str(game.legal_placements()[-1])
        return PlayResult(move, 0.5, (move,), 1, 0.0)

    monkeypatch.setattr(analysis_module, "think", think)
    monkeypatch.setattr(analysis_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, Limit(seconds=5.0), total_seconds=2.0)
    # the start, three positions, three engine's choices; the deeper look's four positions and
    # the positions after its choices at the moves it judged
    assert len(given) == 11 + len(result.judged) and result.judged
    assert all(seconds is not None for seconds in given)
    assert now[0] == pytest.approx(2.0) and sum(s for s in given if s is not None) <= 2.0 + 1e-9


def test_once_the_whole_bound_has_passed_only_the_curve_is_searched(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked = by_position(monkeypatch, {}, {})
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    result = analyze_game(game, Limit(seconds=1.0), total_seconds=0.0)
    assert len(asked) == 4   # the start and the three positions after the moves
    assert [report.red_best for report in result.moves] == [None] * 3
    assert result.swings == ()


def test_the_json_holds_the_start_every_move_and_the_swings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    by_position(monkeypatch, {"B2 C5 G7": 0.2, "B2 D4 G7": 0.7}, {"B2 G7": "D4"})
    game = played(Game(("alice", "bob"), size=8, swap=False), ["B2", "G7", "C5"])
    data = analyze_game(game, LIMIT).as_json()
    assert data["start"] == 0.5 and data["swings"] == [3]
    moves = data["moves"]
    assert isinstance(moves, list)
    assert moves[2] == {"number": 3, "colour": "red", "played": "C5", "red": 0.2, "best": "D4",
                        "red_best": 0.7}


def _mover_wins(start: Game, mover: Colour, games: int) -> int:
    """How often `mover` wins the engine's games against itself from `start` (seeded)."""
    wins = 0
    for seed in range(games):
        game = start.copy()
        while game.outcome is None:
            game.play(think(game, Limit(nodes=200), seed=seed * 100 + game.moves_made).move)
        wins += game.outcome.winner is mover
    return wins


def test_the_largest_swing_is_a_turning_point_when_played_out() -> None:
    """With the engine as it is, the largest swing of a 6×6 game (Red's D2, where the engine
    would play E3) is confirmed by play: the engine against itself wins less often for the
    mover from the position after the move played than from the one after the engine's
    choice (0 of 6 against 6 of 6 when this was written)."""
    game = played(Game(("alice", "bob"), size=6, rules="pp", swap=False), BLACK_CONNECTS)
    result = analyze_game(game, Limit(nodes=200))   # the same swing, D2 for E3, as at 400
    assert result.swings
    swing = result.move(result.swings[0])
    assert swing.loss >= MIN_SWING
    before = played(Game(("alice", "bob"), size=6, rules="pp", swap=False),
                    BLACK_CONNECTS[:swing.number - 1])
    after_played, after_best = before.copy(), before.copy()
    after_played.play(swing.played)
    after_best.play(swing.best)
    assert (_mover_wins(after_played, swing.colour, 6)
            < _mover_wins(after_best, swing.best_colour or swing.colour, 6))


@pytest.mark.usefixtures("cheap_deep_looks")
def test_a_point_of_the_curve_weighs_in_the_searches_before_and_after_it() -> None:
    """After a Red peg the search of the start tried but did not choose, the curve is Red's
    chance from three looks at the same position: its own search (Black to move), the search
    before it, which valued the peg for Red, and the search after Black's answer, which values
    what the answer kept of it for Black. The move's loss compares it with the engine's choice
    by the first two only (`alike`). (No deeper look judges it here: that would replace both.)"""
    start = Game(("alice", "bob"), size=8, swap=False)
    searched = think(start, LIMIT)
    tried = next(move for move in searched.root_moves if move.hole != searched.move)
    assert tried.hole is not None
    answer = "E6" if tried.hole != "E6" else "D5"
    game = played(start.copy(), [tried.hole, answer])
    report = analyze_game(game, LIMIT, screen=Screen(least=-1.0, most=0)).move(1)
    own = think(played(start.copy(), [tried.hole]), LIMIT)
    later = think(game, LIMIT)
    assert own.searched is not None and later.searched is not None
    black = looks().chance(own.searched, own.nodes, 1.0 - tried.searched, tried.visits,
                           1.0 - later.searched, later.nodes)
    alike = looks().chance(own.searched, own.nodes, 1.0 - tried.searched, tried.visits)
    assert report.red == pytest.approx(1.0 - black)
    assert report.alike == pytest.approx(1.0 - alike)
    assert report.red != pytest.approx(report.alike)


@pytest.mark.usefixtures("cheap_deep_looks")
def test_the_engines_own_choice_is_worth_the_moves_chance_and_lost_nothing() -> None:
    """When the move played is the engine's choice, the report gives the one position one
    figure (the curve's) for both, as the JSON and the picture show them, and no loss."""
    start = Game(("alice", "bob"), size=8, swap=False)
    game = played(start.copy(), [think(start, LIMIT).move, "E6"])
    report = analyze_game(game, LIMIT).move(1)
    assert report.best == report.played
    assert report.red_best == report.red and report.alike is None and report.loss == 0.0
