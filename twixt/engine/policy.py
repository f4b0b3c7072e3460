"""Where people play, seen over the whole board at once: the root's move policy.

The priors of `engine.patterns` look at a hole's neighbourhood; what decides between a few
good local moves is often the shape of the whole board. A small residual convolutional
network, learned from the same real games (`benchmarks/train_policy.py`), reads the board as
planes (below) and gives every free hole a logarithm of its chance to be the peg played. It
runs once a search, at the root, whose moves and priors it then chooses (`engine.core` hands
the same numbers to either core); the nodes below the root keep the cheaper learned patterns,
which a search needs thousands of times a second.

The board is seen from the side to move as if it were Red (it joins the top and bottom
rows; for Black the board is read transposed), as the patterns see it. The network is
fully convolutional, so it reads any board size; it was learned on 24×24. Its answer is the
mean of its answers on the board and on its three mirror images (left-right, top-bottom,
both), which the rules leave unchanged.

It needs numpy; the weights are a small data file (`data/policy.npz`) with their provenance.
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib import resources
from typing import Any

# The engine's searches run one to a core (the service's engine processes); numpy's matrix
# products spread over every core would only fight them (three times slower on a busy
# machine than on one thread). Read when numpy is first imported, which the engine does here.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from numpy.typing import NDArray

from twixt.engine.board import Board
from twixt.engine.evaluate import Side, side
from twixt.rules import Colour

#: the input planes, in order, seen from the side to move: 1.0 where the name holds
PLANES = (
    "own peg", "opponent's peg",
    # a link of that colour ends here, by its direction in the mover's frame: steep (two
    # rows, one column) or flat, rising (both steps the same sign) or falling
    "own link steep rising", "own link steep falling",
    "own link flat rising", "own link flat falling",
    "opponent's link steep rising", "opponent's link steep falling",
    "opponent's link flat rising", "opponent's link flat falling",
    "free for the side to move", "the opponent's last peg", "the own last peg",
    "on the board", "own border row",
    "on an own shortest path", "on an opponent's shortest path",
    # 1 / the width of the hole's layer of those paths (a hole every path needs: 1.0)
    "own path layer's narrowness", "opponent's path layer's narrowness",
    # the same number on every hole: (own distance - opponent's), -6..6, over 6
    "distance ahead",
    # the same number on every hole: pegs placed, up to 60, over 60
    "game's phase",
)
DATA = "policy.npz"
FREE = PLANES.index("free for the side to move")
#: a link's plane among the four of its colour, when a mirror image swaps rising and falling
LINK_MIRRORED = (1, 0, 3, 2)
#: distances and pegs placed are read up to these
DISTANCE_CAP, PHASE_CAP = 6, 60


def planes(board: Board, colour: Colour, mine: Side, theirs: Side) -> NDArray[np.float32]:
    """The board as the network reads it (`PLANES` × rows × columns, in the mover's frame)
    with `colour` to move; `mine` and `theirs` are both sides' `evaluate.side`."""
    pos, geo = board.pos, board.geo
    red = colour is Colour.RED
    height, width = (geo.rows, geo.cols) if red else (geo.cols, geo.rows)
    out = np.zeros((len(PLANES), height * width), dtype=np.float32)
    at = frame_index(geo.cols, geo.rows, red)
    for hole, owner in enumerate(pos.peg_colour):
        if owner is not None:
            out[0 if owner is colour else 1, at[hole]] = 1.0
    for lid, owner in pos.links.items():
        ends = geo.link_ends[lid]
        assert ends is not None
        a, b = at[ends[0]], at[ends[1]]
        rows, cols = b // width - a // width, b % width - a % width
        plane = (2 if owner is colour else 6) + (0 if abs(rows) == 2 else 2) + (
            0 if rows * cols > 0 else 1)
        out[plane, a] = out[plane, b] = 1.0
    for plane, bits in ((10, board.free(colour)), (13, geo.all_mask),
                        (14, sum(geo.border_masks[colour])), (15, mine.path), (16, theirs.path)):
        out[plane, at[_holes(bits)]] = 1.0
    recent = board.recent(colour)
    for plane, peg in ((11, recent.last), (12, recent.own_last)):
        if peg >= 0:
            out[plane, at[peg]] = 1.0
    for plane, found in ((17, mine), (18, theirs)):
        for layer in found.path_layers:
            out[plane, at[_holes(layer)]] = 1.0 / max(1, layer.bit_count())
    ahead = (min(mine.distance, 30) - min(theirs.distance, 30))
    ahead = max(-DISTANCE_CAP, min(DISTANCE_CAP, ahead))
    out[19] = out[13] * (ahead / DISTANCE_CAP)
    pegs = board.pos.occupied.bit_count()
    out[20] = out[13] * (min(pegs, PHASE_CAP) / PHASE_CAP)
    return out.reshape(len(PLANES), height, width)


@cache
def frame_index(cols: int, rows: int, red: bool) -> NDArray[np.intp]:
    """Per hole index of the board, its index in the mover's frame (transposed for Black)."""
    holes = np.arange(cols * rows)
    col, row = holes % cols, holes // cols
    return row * cols + col if red else col * rows + row


def _holes(bits: int) -> NDArray[np.intp]:
    """The indices of the set bits of a bitboard."""
    raw = np.frombuffer(bits.to_bytes((bits.bit_length() + 7) // 8 or 1, "little"),
                        dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


class PolicyNetwork:
    """The policy network's weights (batch normalisation folded into the convolutions):
    a stem convolution, residual blocks of two 3×3 convolutions, a 1×1 head."""

    def __init__(self, arrays: dict[str, NDArray[np.float32]]) -> None:
        self.stem = (arrays["stem.weight"], arrays["stem.bias"])
        self.blocks = [((arrays[f"block{i}.a.weight"], arrays[f"block{i}.a.bias"]),
                        (arrays[f"block{i}.b.weight"], arrays[f"block{i}.b.bias"]))
                       for i in range(int(arrays["blocks"]))]
        self.head = (arrays["head.weight"], arrays["head.bias"])
        if self.stem[0].shape[1] != len(PLANES):
            raise ValueError(f"{DATA}: the network reads {self.stem[0].shape[1]} planes, "
                             f"not {len(PLANES)}")

    def logits(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        """Per image of the batch `x` (images × planes × rows × columns), per hole: the
        network's logit (not yet limited to the free holes)."""
        h = np.maximum(_convolved(x, *self.stem), 0.0)
        for first, second in self.blocks:
            inner = np.maximum(_convolved(h, *first), 0.0)
            h = np.maximum(h + _convolved(inner, *second), 0.0)
        return _convolved(h, *self.head)[:, 0]


def _convolved(x: NDArray[np.float32], weight: NDArray[np.float32],
               bias: NDArray[np.float32]) -> NDArray[np.float32]:
    """A 'same' convolution (zero padding) of the batch `x` by `weight` (out × in × k × k).

    One matrix product: each hole's window of every plane (images · rows · columns × planes ·
    k · k) against the weights (out × planes · k · k). The windows are copied one shift of the
    kernel at a time from the padded batch held hole by hole (planes last, as the product
    leaves its answer, which is returned as a view): a few large copies, not one of k × k
    small pieces, for the same numbers in the same order."""
    images, planes, height, width = x.shape
    out, _in, k, _k = weight.shape
    pad = k // 2
    padded = np.zeros((images, height + 2 * pad, width + 2 * pad, planes), dtype=x.dtype)
    padded[:, pad:pad + height, pad:pad + width] = x.transpose(0, 2, 3, 1)
    columns = np.empty((images, height, width, planes, k, k), dtype=x.dtype)
    for row in range(k):
        for column in range(k):
            columns[..., row, column] = padded[:, row:row + height, column:column + width]
    found = columns.reshape(images * height * width, -1) @ weight.reshape(out, -1).T + bias
    return found.reshape(images, height, width, out).transpose(0, 3, 1, 2)


@cache
def _shipped() -> dict[str, NDArray[Any]]:
    """The data file's arrays."""
    with (resources.files("twixt.engine").joinpath("data", DATA).open("rb") as file,
          np.load(file, allow_pickle=False) as arrays):
        return {name: arrays[name] for name in arrays.files}


@cache
def network() -> PolicyNetwork:
    """The shipped network."""
    return PolicyNetwork(_shipped())


def provenance() -> dict[str, Any]:
    """Where the shipped weights come from (the training command writes it into the file)."""
    found: dict[str, Any] = json.loads(str(_shipped()["provenance"]))
    return found


def mirrored(x: NDArray[np.float32], across: bool, along: bool) -> NDArray[np.float32]:
    """The planes `x` (… × planes × rows × columns) of the board's mirror image: columns
    reversed (`across`), rows reversed (`along`); one mirror swaps rising and falling links."""
    if across:
        x = x[..., ::-1]
    if along:
        x = x[..., ::-1, :]
    if across != along:
        order = list(range(x.shape[-3]))
        for base in (2, 6):
            order[base:base + 4] = [base + k for k in LINK_MIRRORED]
        x = x[..., order, :, :]
    return np.ascontiguousarray(x)


MIRRORS = ((False, False), (True, False), (False, True), (True, True))


def log_policy(x: NDArray[np.float32], net: PolicyNetwork | None = None) -> NDArray[np.float64]:
    """Per hole of the planes `x` (one board, mover's frame, rows × columns): the logarithm
    of the network's chance that the side to move plays it (mean over the mirror images of
    the log-probabilities), -inf where it may not play."""
    net = net or network()
    images = np.stack([mirrored(x, *mirror) for mirror in MIRRORS])
    total = np.zeros(x.shape[1:], dtype=np.float64)
    for image, logits, (across, along) in zip(images, net.logits(images), MIRRORS,
                                              strict=True):
        masked = np.where(image[FREE] > 0.5, logits.astype(np.float64), -np.inf)
        masked -= masked.max()
        masked -= np.log(np.exp(masked).sum())
        if along:
            masked = masked[::-1, :]
        if across:
            masked = masked[:, ::-1]
        total += masked
    return total / len(MIRRORS)


def root_scores(board: Board, colour: Colour) -> list[float]:
    """Per hole index of the board, the policy's logarithm for `colour` to play there
    (a very low number where it may not play), as the cores read their root's priors."""
    geo = board.geo
    mine, theirs = side(board.pos, colour), side(board.pos, colour.opponent)
    found = log_policy(planes(board, colour, mine, theirs)).reshape(-1)
    at = frame_index(geo.cols, geo.rows, colour is Colour.RED)
    scores = np.maximum(found[at], UNPLAYABLE)
    return [float(score) for score in scores]


#: a hole the side may not play, as a score
UNPLAYABLE = -1e9
