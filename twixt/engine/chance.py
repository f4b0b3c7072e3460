"""The chance of winning the engine reports, calibrated on real games.

The search's value for a position (the mean, over its tree, of the evaluation's guesses from
both sides' distances) orders positions well but is not a frequency: on positions of real
games it gave the side to move more than the side to move went on to win
(docs/engine-measurements.md, "The chance, calibrated"). `Calibration` maps it to one,
`logit(chance) = slope * logit(value) + bias`, fitted by maximum likelihood on positions of
the 728 training games with their results (`benchmarks/calibrate_chance.py fit`) and shipped
with its provenance in `data/calibration.json`. The map is increasing, so it changes no
move: the search still compares its own values; only the figure reported (`PlayResult.win`:
the analysis's curve, the bot's resignations and its answers to draw offers) goes through it.
A decided value (0 or 1: a won or lost position) stays what it is.
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
    """`logit(chance) = slope * logit(value) + bias`, and where it was learned."""

    slope: float
    bias: float
    provenance: dict[str, Any] = field(default_factory=dict)

    def chance(self, value: float) -> float:
        """The chance that the side to move wins, for the search's `value` (0–1)."""
        if value <= 0.0 or value >= 1.0:
            return min(1.0, max(0.0, value))
        logit = math.log(value / (1.0 - value))
        return 1.0 / (1.0 + math.exp(-(self.slope * logit + self.bias)))

    def as_json(self) -> dict[str, Any]:
        """The data file's contents."""
        return {"slope": self.slope, "bias": self.bias, "provenance": self.provenance}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        """A calibration from a data file's contents."""
        return cls(float(data["slope"]), float(data["bias"]), dict(data.get("provenance", {})))


@cache
def shipped() -> Calibration:
    """The calibration the package ships."""
    return Calibration.from_json(json.loads(resources.files("twixt.engine").joinpath(
        "data", DATA).read_text(encoding="utf-8")))


def calibrated(value: float) -> float:
    """The shipped calibration's chance for the search's `value`."""
    return shipped().chance(value)
