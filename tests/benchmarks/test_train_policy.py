"""The training of the root's policy network (benchmarks/train_policy.py) works: it learns from
the training games' pegs as the engine reads the board, and what it writes, the engine runs
in numpy as PyTorch ran it (batch normalisation folded in), from every mirror image alike.
Needs PyTorch (`pip install -e '.[policy]'`, which CI installs)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from train_policy import (  # noqa: E402 - after the skip
    Net,
    exported,
    game_examples,
    main,
    played_ranks,
    stacked,
    train,
    training_games,
)

from twixt.engine import policy  # noqa: E402


def test_each_peg_is_an_example_its_hole_free_in_the_planes() -> None:
    games, _dropped = training_games()
    name, game = games[0]
    x, y = stacked(game_examples(game))
    pegs = sum(1 for turn in game.history if turn.placed is not None)
    assert len(x) == pegs - 1, name            # every peg but the first
    assert x.shape[1:] == (len(policy.PLANES), 24, 24)
    free = x[:, policy.FREE].reshape(len(x), -1)
    assert free[np.arange(len(x)), y].all()
    # the side to move has one peg more or as many as the opponent, before the swap
    assert (x[:, 0].sum(axis=(1, 2)) - x[:, 1].sum(axis=(1, 2)) <= 1).all()


def test_the_engine_runs_the_learned_network_as_pytorch_does() -> None:
    games, _dropped = training_games()
    x, y = stacked(example for _name, game in games[:3] for example in game_examples(game))
    net = train(x, y, channels=6, blocks=2, epochs=2, rate=2e-3, seed=3)
    arrays = exported(net, {"test": True})
    engine = policy.PolicyNetwork(arrays)           # type: ignore[arg-type]
    with torch.no_grad():
        expected = net(torch.from_numpy(x[:8])).numpy()
    found = engine.logits(x[:8]).reshape(8, -1)
    free = x[:8, policy.FREE].reshape(8, -1) > 0.5
    assert np.abs(found[free] - expected[free]).max() < 1e-4
    # the learned network ranks its own training pegs better than an untrained one does
    untrained = policy.PolicyNetwork(exported(Net(6, 2).eval(), {}))  # type: ignore[arg-type]
    assert played_ranks(engine, x, y).mean() < played_ranks(untrained, x, y).mean()


def test_the_command_writes_a_file_the_engine_loads(tmp_path) -> None:
    output = tmp_path / "policy.npz"
    main(["--games", "2", "--epochs", "1", "--channels", "4", "--blocks", "1",
          "--output", str(output)])
    with np.load(output, allow_pickle=False) as arrays:
        net = policy.PolicyNetwork({name: arrays[name] for name in arrays.files})
        assert '"command": "python benchmarks/train_policy.py"' in str(arrays["provenance"])
    assert len(net.blocks) == 1 and net.stem[0].shape == (4, len(policy.PLANES), 5, 5)
