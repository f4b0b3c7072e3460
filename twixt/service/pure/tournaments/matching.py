"""Maximum matching in a general graph (Edmonds' blossom algorithm), for Swiss pairings.

A Swiss round is a perfect matching of the players still to be paired in the graph of
allowed games (no rematch, colours possible). A greedy pairing in rank order can paint itself
into a corner — the last few players may all have met — and a search that backtracks can
take exponential time to learn that. Edmonds' algorithm decides in polynomial time whether a
perfect matching exists, and its augmenting-path search lets `pairing` ask, for each
pairing it would like to make, "can everyone else still be paired?" with one search
instead of a new matching.

Pure and bounded: vertices are 0 … n-1 (n is at most a few hundred), one search costs
O(n · edges) at worst.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

UNMATCHED = -1


class Matching:
    """A matching of the graph `adjacent` (vertex → its neighbours), over the vertices still
    *active*: `remove` takes a vertex out (and unmatches it), `grow` makes the matching
    maximum, `mate` tells a vertex's partner."""

    def __init__(self, adjacent: Sequence[Iterable[int]]) -> None:
        self._adjacent = [tuple(neighbours) for neighbours in adjacent]
        self._mate = [UNMATCHED] * len(self._adjacent)
        self._active = [True] * len(self._adjacent)

    def mate(self, vertex: int) -> int:
        """The vertex matched with `vertex`, or `UNMATCHED`."""
        return self._mate[vertex]

    def active(self) -> list[int]:
        """The vertices still in the graph."""
        return [vertex for vertex, active in enumerate(self._active) if active]

    def free(self) -> list[int]:
        """The active vertices the matching leaves out."""
        return [vertex for vertex in self.active() if self._mate[vertex] == UNMATCHED]

    def remove(self, vertex: int) -> int:
        """Take `vertex` out of the graph; its former mate (now free) is returned."""
        partner = self._mate[vertex]
        self._active[vertex] = False
        self._mate[vertex] = UNMATCHED
        if partner != UNMATCHED:
            self._mate[partner] = UNMATCHED
        return partner

    def restore(self, vertex: int, partner: int) -> None:
        """Undo `remove(vertex)` that returned `partner` (only while nothing else changed)."""
        self._active[vertex] = True
        if partner != UNMATCHED:
            self._mate[vertex], self._mate[partner] = partner, vertex

    def grow(self) -> int:
        """Make the matching maximum (greedily first, then by augmenting paths); the number
        of vertices it still leaves free."""
        for vertex in self.active():
            if self._mate[vertex] == UNMATCHED:
                for other in self._adjacent[vertex]:
                    if self._active[other] and self._mate[other] == UNMATCHED:
                        self._mate[vertex], self._mate[other] = other, vertex
                        break
        for vertex in self.free():
            if self._mate[vertex] == UNMATCHED:
                self.augment(vertex)
        return len(self.free())

    def augment(self, root: int) -> bool:
        """Match the free vertex `root` along an augmenting path, if there is one (Edmonds:
        odd cycles — blossoms — are contracted onto their base as the search meets them)."""
        size = len(self._adjacent)
        mate, active = self._mate, self._active
        parent = [UNMATCHED] * size
        base = list(range(size))
        outer = [False] * size
        outer[root] = True
        queue = deque([root])

        def common_base(a: int, b: int) -> int:
            seen = [False] * size
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == UNMATCHED:
                    break
                a = parent[mate[a]]
            while not seen[base[b]]:
                b = parent[mate[base[b]]]
            return base[b]

        def mark_path(vertex: int, stem: int, child: int, blossom: list[bool]) -> None:
            while base[vertex] != stem:
                blossom[base[vertex]] = blossom[base[mate[vertex]]] = True
                parent[vertex] = child
                child = mate[vertex]
                vertex = parent[mate[vertex]]

        while queue:
            vertex = queue.popleft()
            for other in self._adjacent[vertex]:
                if not active[other] or base[vertex] == base[other] or mate[vertex] == other:
                    continue
                if other == root or (mate[other] != UNMATCHED
                                     and parent[mate[other]] != UNMATCHED):
                    stem = common_base(vertex, other)
                    blossom = [False] * size
                    mark_path(vertex, stem, other, blossom)
                    mark_path(other, stem, vertex, blossom)
                    for inner in range(size):
                        if blossom[base[inner]]:
                            base[inner] = stem
                            if not outer[inner]:
                                outer[inner] = True
                                queue.append(inner)
                elif parent[other] == UNMATCHED:
                    parent[other] = vertex
                    if mate[other] == UNMATCHED:
                        self._flip(other, parent)
                        return True
                    outer[mate[other]] = True
                    queue.append(mate[other])
        return False

    def _flip(self, end: int, parent: list[int]) -> None:
        """Swap matched and unmatched edges along the path from `end` back to the root."""
        while end != UNMATCHED:
            previous = parent[end]
            further = self._mate[previous]
            self._mate[end], self._mate[previous] = previous, end
            end = further
