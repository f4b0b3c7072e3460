"""The training of the root's policy network (benchmarks/train_policy.py) works: it learns from
the training games' pegs as the engine reads the board, and what it writes, the engine runs
in numpy as PyTorch ran it (batch normalisation folded in), from every mirror image alike.
Needs PyTorch (`pip install -e '.[policy]'`, which CI installs)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import numpy as np
import pytest

from twixt.engine import policy
from twixt.rules import Game

if importlib.util.find_spec("torch") is None:
    pytest.skip("needs PyTorch (pip install -e '.[policy]')", allow_module_level=True)


@pytest.fixture(scope="module")
def trainer() -> ModuleType:
    """benchmarks/train_policy.py, and with it PyTorch, imported by the worker that runs these
    tests, not by every worker's collection (1.5 s of CPU each)."""
    import train_policy

    return train_policy


@pytest.fixture(scope="module")
def games(trainer: ModuleType) -> list[tuple[str, Game]]:
    """The training games (about 1.6 s of CPU to read and replay), read once for the tests
    that look at them; the command's test reads them as the command does."""
    return trainer.training_games()[0]


def test_each_peg_is_an_example_its_hole_free_in_the_planes(
        trainer: ModuleType, games: list[tuple[str, Game]]) -> None:
    name, game = games[0]
    x, y = trainer.stacked(trainer.game_examples(game))
    pegs = sum(1 for turn in game.history if turn.placed is not None)
    assert len(x) == pegs - 1, name            # every peg but the first
    assert x.shape[1:] == (len(policy.PLANES), 24, 24)
    free = x[:, policy.FREE].reshape(len(x), -1)
    assert free[np.arange(len(x)), y].all()
    # the side to move has one peg more or as many as the opponent, before the swap
    assert (x[:, 0].sum(axis=(1, 2)) - x[:, 1].sum(axis=(1, 2)) <= 1).all()


def test_the_engine_runs_the_learned_network_as_pytorch_does(
        trainer: ModuleType, games: list[tuple[str, Game]]) -> None:
    x, y = trainer.stacked(example for _name, game in games[:3]
                           for example in trainer.game_examples(game))
    net = trainer.train(x, y, channels=6, blocks=2, epochs=2, rate=2e-3, seed=3)
    arrays = trainer.exported(net, {"test": True})
    engine = policy.PolicyNetwork(arrays)
    with trainer.torch.no_grad():
        expected = net(trainer.torch.from_numpy(x[:8])).numpy()
    found = engine.logits(x[:8]).reshape(8, -1)
    free = x[:8, policy.FREE].reshape(8, -1) > 0.5
    assert np.abs(found[free] - expected[free]).max() < 1e-4
    # the learned network ranks its own training pegs better than an untrained one does
    untrained = policy.PolicyNetwork(trainer.exported(trainer.Net(6, 2).eval(), {}))
    ranks = trainer.played_ranks
    assert ranks(engine, x, y).mean() < ranks(untrained, x, y).mean()


def test_the_command_writes_a_file_the_engine_loads(trainer: ModuleType, tmp_path) -> None:
    output = tmp_path / "policy.npz"
    trainer.main(["--games", "2", "--epochs", "1", "--channels", "4", "--blocks", "1",
          "--threads", "1", "--output", str(output)])  # as the run's (tests/conftest.py)
    with np.load(output, allow_pickle=False) as arrays:
        net = policy.PolicyNetwork({name: arrays[name] for name in arrays.files})
        assert '"command": "python benchmarks/train_policy.py"' in str(arrays["provenance"])
    assert len(net.blocks) == 1 and net.stem[0].shape == (4, len(policy.PLANES), 5, 5)
