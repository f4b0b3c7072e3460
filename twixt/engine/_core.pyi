"""The compiled search (twixt/engine/_core.c); twixt/engine/core.py prepares its arguments and
is the only caller."""

#: the sizes of a node and of a listed move in the search's tree (search.NODE_BYTES, EDGE_BYTES)
NODE_BYTES: int
EDGE_BYTES: int

class Tables:
    """One board size's and rule set's tables, made by `tables`."""

def tables(cols: int, rows: int, classic: bool, masks: bytes, shifts: bytes, neighbours: bytes,
           link_ends: bytes, crossings: bytes, frames: bytes, /) -> Tables: ...

#: far, table size, steps near, ahead, aside, offsets, widths, cuts, denies, areas, area slots
PriorParams = tuple[int, int, int, int, int, tuple[int, ...], tuple[int, ...], int, int, int,
                    bytes]


def search(
    tables: Tables, pegs: bytes, links: bytes, recent: tuple[int, int], to_move: int,
    nodes: int, seconds: float, rng_values: list[float],
    params: tuple[float, float, float, float, float, float, float, int, int, int, int, int],
    priors: bytes,
    prior_params: PriorParams,
    root_scores: bytes | None,
    /,
) -> tuple[int, float, float | None, list[int], list[float], list[int], list[float],
           list[list[int]], int, int]: ...

def side(tables: Tables, pegs: bytes, links: bytes, colour: int, paths: bool, cap: int, /,
         ) -> tuple[int, list[bytes], bytes]: ...
