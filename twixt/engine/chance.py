"""The chance of winning the engine reports, calibrated on real games.

The search's value for a position (the mean, over its tree, of the evaluation's guesses from
both sides' distances) orders positions well but is not a frequency: on positions of real
games it gave the side to move more than the side to move went on to win
(docs/engine-measurements.md, "The chance, calibrated"). `Calibration` maps it to one,
`logit(chance) = slope * z + curve * z**3 + bias` with `z = logit(value)`, fitted by maximum
likelihood on every position of 227 whole training games with their results, every other one
by date, so that the games of every period weigh as they do in the corpus
(`benchmarks/calibrate_chance.py fit`, which also chooses whether the cubic term earns its
place, by how well maps fitted on some of the games foretell the others) and shipped with its
provenance in `data/calibration.json`. The cubic term (never negative) would let the map trust
a confident search more than a doubtful one; the refit keeps it only where it foretells the
training games better (the shipped maps are lines). The map is increasing, so it changes no
move: the search still compares its own values; only the figure reported (`PlayResult.win`:
the analysis's curve, the bot's resignations and its answers to draw offers) goes through it.
A decided value (0 or 1: a won or lost position) stays what it is.

An analysis looks at each position after a move three times: its own search, the search of
the position before, which tried the move that led to it and valued it
(`PlayResult.root_moves`), and the search of the position after the next move played, whose
value is what the next move kept of this one. All three are honest estimates of the same
position; the earlier one shares its errors with the point before it on the curve and the
later one with the point after it, so a mean of the three draws a calmer curve than any of
them, in which a search's noise no longer makes the curve jump up and down with the turn
(docs/engine-measurements.md, "The curve's zigzag"). `CurveLooks` weighs them in logits and maps
the mean to a chance with a calibration fitted on that mean (`benchmarks/calibrate_chance.py
fit`, shipped as `analysis` in the data file).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

DATA = "calibration.json"


@dataclass(frozen=True)
class Calibration:
    """`logit(chance) = slope * z + curve * z**3 + bias`, `z = logit(value)` (`slope` > 0 and
    `curve` >= 0: increasing), and where it was learned."""

    slope: float
    bias: float
    provenance: dict[str, Any] = field(default_factory=dict)
    curve: float = 0.0

    def chance(self, value: float) -> float:
        """The chance that the side to move wins, for the search's `value` (0–1)."""
        if value <= 0.0 or value >= 1.0:
            return min(1.0, max(0.0, value))
        z = _logit(value)
        return 1.0 / (1.0 + math.exp(-(self.slope * z + self.curve * z ** 3 + self.bias)))

    def as_json(self) -> dict[str, Any]:
        """The data file's contents."""
        return {"slope": self.slope, "bias": self.bias, "curve": self.curve,
                "provenance": self.provenance}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        """A calibration from a data file's contents."""
        return cls(float(data["slope"]), float(data["bias"]), dict(data.get("provenance", {})),
                   float(data.get("curve", 0.0)))


@dataclass(frozen=True)
class CurveLooks:
    """The chance of a position from its own search's `value` (of `nodes` nodes) and, when
    there are, the search of the position before's value of the move leading here (for the
    same side, `earlier`, over `visits` visits) and the value the search of the position after
    the next move played gives what that move kept (for the same side, `later`, a search of
    `later_nodes` nodes): their logits weighed as `share` times `nodes`, `visits`, and `weight`
    times `share` times `later_nodes` (the earlier look counts as that many of this search's
    nodes a visit, the later search as `weight` times this one), mapped by `calibration`,
    fitted on that weighed value."""

    calibration: Calibration
    share: float
    weight: float = 0.0

    def value(self, value: float, nodes: int, earlier: float | None = None, visits: int = 0,
              later: float | None = None, later_nodes: int = 0) -> float:
        """The weighed value (the position's own when there is no other look, or when a look
        has found the position decided)."""
        if value in (0.0, 1.0) or earlier in (0.0, 1.0) or later in (0.0, 1.0):
            return value
        own = self.share * max(1, nodes)
        total, weights = own * _logit(value), own
        if earlier is not None and visits:
            total, weights = total + visits * _logit(earlier), weights + visits
        if later is not None and later_nodes and self.weight:
            after = self.weight * self.share * later_nodes
            total, weights = total + after * _logit(later), weights + after
        return 1.0 / (1.0 + math.exp(-total / weights))

    def chance(self, value: float, nodes: int, earlier: float | None = None, visits: int = 0,
               later: float | None = None, later_nodes: int = 0) -> float:
        """The chance that the side to move wins (see the class)."""
        return self.calibration.chance(self.value(value, nodes, earlier, visits, later,
                                                  later_nodes))


def _logit(value: float) -> float:
    """The logit of a value taken no nearer to 0 or 1 than `CLIP` (the fit's too)."""
    clipped = min(max(value, CLIP), 1.0 - CLIP)
    return math.log(clipped / (1.0 - clipped))


#: how near to 0 or 1 a value's logit is taken (a searched mean of 0.999999 is no proof)
CLIP = 1e-6


def _data() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(resources.files("twixt.engine").joinpath(
        "data", DATA).read_text(encoding="utf-8"))
    return found


@cache
def shipped() -> Calibration:
    """The calibration the package ships (for one search's value)."""
    return Calibration.from_json(_data())


@cache
def looks() -> CurveLooks:
    """The analysis's looks at a position, as the package ships them."""
    found = _data()["analysis"]
    return CurveLooks(Calibration.from_json(found), float(found["share"]),
                      float(found.get("later", 0)))


def calibrated(value: float) -> float:
    """The shipped calibration's chance for the search's `value`."""
    return shipped().chance(value)
