"""The compiled search (twixt/engine/_core.c); twixt/engine/core.py prepares its arguments and
is the only caller."""

class Tables:
    """One board size's and rule set's tables, made by `tables`."""

def tables(cols: int, rows: int, classic: bool, masks: bytes, shifts: bytes, neighbours: bytes,
           link_ends: bytes, crossings: bytes, frames: bytes, /) -> Tables: ...

def search(
    tables: Tables, pegs: bytes, links: bytes, recent: tuple[int, int], to_move: int,
    nodes: int, seconds: float, rng_values: list[float],
    params: tuple[float, float, float, float, float, float, float, int, int, int, int, int],
    priors: bytes,
    prior_params: tuple[int, int, int, int, int, tuple[int, ...], tuple[int, ...]],
    /,
) -> tuple[int, float, float | None, list[int], list[float], list[int], list[float],
           list[list[int]]]: ...

def side(tables: Tables, pegs: bytes, links: bytes, colour: int, paths: bool, cap: int, /,
         ) -> tuple[int, list[bytes], bytes]: ...
