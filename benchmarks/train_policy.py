"""Learn the engine's root policy network from real games, and write twixt/engine/data/policy.npz.

    python benchmarks/train_policy.py                  # learn and write the data file
    python benchmarks/train_policy.py --measure        # also rank the benchmark's pegs 5 to 40
    python benchmarks/train_policy.py --epochs 1 --measure --check   # quickly, writes nothing

Every peg of the same 728 training games as `train_priors.py` (the corpus without the
real-game benchmark's 100 games) is one example: the board as `engine.policy.planes` reads it
(from the side to move) and the hole played. A small residual network (`--channels`,
`--blocks`) learns to give the played hole a high chance among the free ones (cross-entropy
of a softmax over the free holes), with each batch in one of the board's four mirror images
at random (the rules do not change under them), AdamW and a one-cycle learning rate. The
batch normalisations are folded into the convolutions when the weights are written, so the
engine runs plain convolutions in numpy (`engine.policy.PolicyNetwork`) and needs no PyTorch.

Needs PyTorch and numpy (`pip install -e '.[policy]'`: the CPU build, torch==2.13.0); the
engine does not. `--measure` ranks, with the weights as the engine loads them, the peg
played at every move 5 to 40 of the benchmark's won games (2,523 positions, as `train_priors.py
--measure`) and prints top-1, top-5 and the played peg's mean rank. The training is seeded
(`--seed`); PyTorch on another machine may still round differently.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Iterable
from datetime import date
from multiprocessing import Pool
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from engine_games import Position, positions, replayed
from numpy.typing import NDArray
from torch import nn
from train_priors import CORPUS, EVERY_PEG, training_games

from twixt.engine import policy
from twixt.engine.board import Board
from twixt.engine.evaluate import side
from twixt.rules import Colour, Game

OUTPUT = Path(__file__).parents[1] / "twixt" / "engine" / "data" / policy.DATA


def example(game: Game, played: int) -> tuple[NDArray[np.float32], int]:
    """The planes of `game` for the side to move, and the hole `played` in the mover's frame."""
    board, colour = Board(game), game.colour_to_move
    x = policy.planes(board, colour, side(board.pos, colour), side(board.pos, colour.opponent))
    geo = game.geometry
    return x, int(policy.frame_index(geo.cols, geo.rows, colour is Colour.RED)[played])


def game_examples(game: Game) -> list[tuple[NDArray[np.float32], int]]:
    """One example per peg placed after the first (a swap or a resignation is none)."""
    found = []
    replay = Game(("red", "black"), size=game.options.size_text, rules=game.options.rules,
                  swap=game.options.swap)
    for turn in game.history:
        if turn.placed is not None and replay.pegs_placed > 0:
            found.append(example(replay, replay.geometry.index(turn.placed)))
        if turn.placed is None and turn.text.split()[0] in ("resign", "timeout"):
            break
        replay.play(turn.text)
    return found


def held_out_example(position: Position) -> tuple[NDArray[np.float32], int]:
    """The example of one of the benchmark's positions (`engine_games.positions`)."""
    game, played = replayed(position)
    return example(game, played)


def stacked(found: Iterable[tuple[NDArray[np.float32], int]]) -> tuple[NDArray[np.float32],
                                                                          NDArray[np.int64]]:
    """The examples as one array of planes and one of played holes."""
    pairs = list(found)
    return (np.stack([x for x, _y in pairs]), np.array([y for _x, y in pairs], dtype=np.int64))


# Without the `policy` extra mypy reads torch as Any (pyproject.toml), and a class may not
# subclass Any; with it, nn.Module is a class and the ignore is unused: both are allowed here.
class Block(nn.Module):  # type: ignore[misc, unused-ignore]
    """Two 3×3 convolutions with batch normalisation, added to their input."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.a = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.a_norm = nn.BatchNorm2d(channels)
        self.b = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.b_norm = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        inner = F.relu(self.a_norm(self.a(x)))
        return F.relu(x + self.b_norm(self.b(inner)))


class Net(nn.Module):  # type: ignore[misc, unused-ignore]
    """The network `engine.policy.PolicyNetwork` runs: a 5×5 stem, residual blocks, a 1×1 head."""

    def __init__(self, channels: int, blocks: int) -> None:
        super().__init__()
        self.stem = nn.Conv2d(len(policy.PLANES), channels, 5, padding=2, bias=False)
        self.stem_norm = nn.BatchNorm2d(channels)
        self.blocks = nn.ModuleList(Block(channels) for _ in range(blocks))
        self.head = nn.Conv2d(channels, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits per hole, the holes the side may not play at -1e9."""
        h = F.relu(self.stem_norm(self.stem(x)))
        for block in self.blocks:
            h = block(h)
        logits: torch.Tensor = self.head(h).flatten(1)
        return logits.masked_fill(x[:, policy.FREE].flatten(1) < 0.5, -1e9)


def folded(conv: nn.Conv2d, norm: nn.BatchNorm2d | None) -> tuple[NDArray[np.float32],
                                                                   NDArray[np.float32]]:
    """A convolution's weight and bias with the (evaluation-mode) normalisation after it
    folded in."""
    weight = conv.weight.detach().double()
    bias = (conv.bias.detach().double() if conv.bias is not None
            else torch.zeros(weight.shape[0], dtype=torch.float64))
    if norm is not None:
        assert norm.running_var is not None and norm.running_mean is not None
        scale = norm.weight.detach().double() / torch.sqrt(norm.running_var.double() + norm.eps)
        weight = weight * scale[:, None, None, None]
        bias = (bias - norm.running_mean.double()) * scale + norm.bias.detach().double()
    return weight.float().numpy(), bias.float().numpy()


def exported(net: Net, provenance: dict[str, object]) -> dict[str, NDArray[np.generic]]:
    """The arrays `engine.policy.PolicyNetwork` loads."""
    arrays: dict[str, NDArray[np.generic]] = {}
    arrays["stem.weight"], arrays["stem.bias"] = folded(net.stem, net.stem_norm)
    for i, block in enumerate(net.blocks):
        assert isinstance(block, Block)
        arrays[f"block{i}.a.weight"], arrays[f"block{i}.a.bias"] = folded(block.a, block.a_norm)
        arrays[f"block{i}.b.weight"], arrays[f"block{i}.b.bias"] = folded(block.b, block.b_norm)
    arrays["head.weight"], arrays["head.bias"] = folded(net.head, None)
    arrays["blocks"] = np.array(len(net.blocks))
    arrays["provenance"] = np.array(json.dumps(provenance))
    return arrays


def train(x: NDArray[np.float32], y: NDArray[np.int64], *, channels: int, blocks: int,
          epochs: int, rate: float, seed: int, batch: int = 64) -> Net:
    """The network learned from the examples, each batch in a mirror image drawn at random."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Net(channels, blocks)
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    steps = max(1, epochs * (len(x) // batch))
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, rate, total_steps=steps)
    height, width = x.shape[2:]
    step = 0
    for epoch in range(1, epochs + 1):
        started, total = time.perf_counter(), 0.0
        order = rng.permutation(len(x))
        for start in range(0, len(x) - batch + 1, batch):
            chosen = order[start:start + batch]
            across, along = policy.MIRRORS[int(rng.integers(len(policy.MIRRORS)))]
            planes = torch.from_numpy(policy.mirrored(x[chosen], across, along))
            rows, cols = y[chosen] // width, y[chosen] % width
            if across:
                cols = width - 1 - cols
            if along:
                rows = height - 1 - rows
            loss = F.cross_entropy(net(planes), torch.from_numpy(rows * width + cols))
            optimiser.zero_grad()
            torch.autograd.backward(loss)
            optimiser.step()
            step += 1
            if step < steps:
                schedule.step()
            total += loss.item()
        print(f"epoch {epoch}/{epochs}: loss {total / max(1, len(x) // batch):.3f} "
              f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    net.eval()  # the batch normalisations use their running statistics from here on
    return net


def played_ranks(net: policy.PolicyNetwork, x: NDArray[np.float32],
                 y: NDArray[np.int64]) -> NDArray[np.int64]:
    """Per example, the played hole's rank (1: first) under the policy as the engine runs it
    (ties: the lower hole first, as the cores order equal scores)."""
    found = np.empty(len(x), dtype=np.int64)
    for i, (planes, played) in enumerate(zip(x, y, strict=True)):
        scores = policy.log_policy(planes, net).reshape(-1)
        holes = np.arange(len(scores))
        better = (scores > scores[played]) | ((scores == scores[played]) & (holes < played))
        found[i] = 1 + int(better.sum())
    return found


def measured(found: NDArray[np.int64]) -> str:
    """Top-1, top-5 and the mean rank of the played peg."""
    return (f"{len(found)} positions: top-1 {np.mean(found == 1):.1%}, top-5 "
            f"{np.mean(found <= 5):.1%}, mean rank of the played peg {found.mean():.1f} "
            f"(median {np.median(found):g})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--rate", type=float, default=2e-3, help="the peak learning rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=0,
                        help="learn from the first N training games only (0: all)")
    parser.add_argument("--measure", action="store_true",
                        help="rank the benchmark games' pegs 5 to 40 with the weights learned")
    parser.add_argument("--check", action="store_true", help="write nothing")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch's threads")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    games, dropped = training_games()
    if args.games:
        games = games[:args.games]
    with Pool(2) as pool:
        found = pool.map(game_examples, [game for _name, game in games], chunksize=8)
        x, y = stacked(pair for pairs in found for pair in pairs)
        print(f"{len(games)} games, {len(x)} pegs ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr, flush=True)
        held = (stacked(pool.map(held_out_example, positions(EVERY_PEG), chunksize=16))
                if args.measure else None)
    torch.set_num_threads(args.threads)
    net = train(x, y, channels=args.channels, blocks=args.blocks, epochs=args.epochs,
                rate=args.rate, seed=args.seed)
    with (CORPUS / "index.csv").open(encoding="utf-8") as index:
        listed = sum(1 for _row in csv.DictReader(index))
    provenance: dict[str, object] = {
        "corpus": "benchmarks/games/corpus (see its README): real classic 24x24 games, "
                  "1984-2001, without the 100 games of benchmarks/games",
        "games": len(games), "games_in_corpus": listed, "left_out_same_opening": dropped,
        "pegs": len(x), "planes": list(policy.PLANES),
        "channels": args.channels, "blocks": args.blocks, "epochs": args.epochs,
        "rate": args.rate, "seed": args.seed, "torch": torch.__version__,
        "command": "python benchmarks/train_policy.py", "date": date.today().isoformat(),
        "model": "residual convolutional network, softmax over the free holes, cross-entropy "
                 "of the played peg; batch normalisation folded into the convolutions",
    }
    arrays = exported(net, provenance)
    if held is not None:
        ranks = played_ranks(policy.PolicyNetwork(arrays), *held)  # type: ignore[arg-type]
        print(f"learned from {len(games)} games; {measured(ranks)}", flush=True)
    if args.check:
        return
    args.output.parent.mkdir(exist_ok=True)
    with args.output.open("wb") as file:
        np.savez_compressed(file, **arrays)  # type: ignore[arg-type]
    print(f"wrote {args.output} ({args.output.stat().st_size} bytes) in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
