"""Pegs and links on the board, with the last move, removals and the winning chain marked.

Drawn back to front: removed pieces faintly, halos (winning chain, then the last move's new
links that are not in it: the winning move's links are the chain's), the bare board that
sets the highlighted pieces off from their halos, links, pegs, and the ring around the last
peg on top. A halo is thus a band around its pieces with a strip of plate between: the
halo stands out from the plate, the pieces from the plate strip, whatever their colours.

Each hole's share is drawn as palette tiles (see `tiles`), which blend every edge with what
lies under it when they are made; so a tile holds, besides its own shapes and in drawing
order, the shapes of other holes that meet them: the peg, glow or ring a passing link
reaches, and the links passing by a peg that reach it. Where two links cross (own links may,
in pp), a small tile of both that paints only where both are drawn goes over their holes'
tiles.

All lower parts (removed pieces, halos) are pasted before all pegs and links, and the last
peg's tiles last, so its ring lies over links passing by.

A hole with nothing under its peg and links is drawn as one tile per quarter around it that
holds links: links in different quarters meet only inside the peg, so a few dozen tiles draw
every board. The first also paints the peg (and its ring); the others hold it only to blend
the edges where their links meet it."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image

from twixt.rendering.layout import Layout
from twixt.rendering.options import RenderOptions
from twixt.rendering.themes import GHOST, RGB, faded
from twixt.rendering.tiles import (
    CONTEXT,
    CROSSED,
    CROSSING,
    OVER,
    UNDER,
    Away,
    Bar,
    BoardTiles,
    Disc,
    Half,
    Ring,
    Shape,
    Tile,
    board,
    tile,
)
from twixt.rendering.view import BoardView
from twixt.rules import Colour, Link, Peg
from twixt.rules.geometry import KNIGHT_STEPS, segments_cross

#: A hole as (column, row): tuples hash in C, and a picture hashes holes thousands of times.
At = tuple[int, int]
#: A link position: the end with the lower row, and the step to the other end.
LinkSpot = tuple[int, int, int, int]

#: Ranks in drawing order; a shape's place is (rank, index within its rank).
(_GHOST_LINK, _GHOST_PEG, _CHAIN_LINK, _CHAIN_PEG, _ACCENT_LINK, _GAP_LINK, _GAP_PEG, _LINK,
 _PEG, _RING) = range(10)


def _spot(link: Link) -> LinkSpot:
    a, b = (link.a, link.b) if link.a.row < link.b.row else (link.b, link.a)
    return a.col, a.row, b.col - a.col, b.row - a.row


_DOWN_STEPS = [(dc, dr) for dc, dr in KNIGHT_STEPS if dr > 0]


def _flanks(spot: LinkSpot) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two holes a link passes closest to, beside its middle."""
    col, row, dc, dr = spot
    if dr == 2:
        return (col, row + 1), (col + dc, row + 1)
    return (col + dc // 2, row), (col + dc // 2, row + 1)


@cache
def _crossing_spots() -> dict[tuple[int, int], tuple[LinkSpot, ...]]:
    """For a link from (0, 0) by each downward step: the link positions that cross it and
    sort after it (so that each crossing is found once, from the lower spot; the order of
    spots is the order of their offsets, whatever the link's place)."""
    return {(dc, dr): tuple(other for oc in range(-3, 4) for orow in range(-3, 4)
                            for ec, er in _DOWN_STEPS
                            if (other := (oc, orow, ec, er)) > (0, 0, dc, dr)
                            and segments_cross((0, 0), (dc, dr), (oc, orow), (oc + ec, orow + er)))
            for dc, dr in _DOWN_STEPS}


@lru_cache(maxsize=1024)
def _near_half(to: tuple[int, int], width: float, fill: RGB, rim: RGB | None,
               rim_width: float) -> Half:
    """The near half of a link from a hole by `to` pixels: kept, as a picture has a hundred
    and seventy, nearly all the same few."""
    return Half(Bar((0, 0), to, width, fill, rim, rim_width))


@lru_cache(maxsize=256)
def _peg_shape(radius: float, fill: RGB, rim: RGB, rim_width: float, square: bool,
               mark: RGB | None) -> Disc:
    """A peg's shape: kept, as a picture has dozens of the same two to four."""
    return Disc(radius, fill, rim, rim_width, square, mark)


#: A side's look for a kind of link: fill and rim.
Looks = dict[Colour, tuple[RGB, RGB | None]]


class _Drawing(NamedTuple):
    """A link drawn in one style (removed, as a halo, or itself) at its place in drawing order."""

    place: tuple[int, int]
    a: At
    b: At
    width: float
    fill: RGB
    rim: RGB | None
    rim_width: float
    part: int


#: An own shape of a hole: its place in drawing order, the offset that orders it in the
#: cache key when nothing else is in its tile, the shape, and what it is in the tile.
Own = tuple[tuple[int, int], tuple[int, int], Shape, int]
#: An own shape centred on the hole (a peg, glow or ring), which other tiles may reach.
Centred = tuple[tuple[int, int], tuple[int, int], Disc | Ring, int]


class _Scene:
    """Every shape of a position, by hole, and the shapes of other holes that overlap them."""

    def __init__(self, lay: Layout, view: BoardView, options: RenderOptions) -> None:
        self.lay, self.view, self.colours = lay, view, options.colours
        self.drawings: defaultdict[LinkSpot, list[_Drawing]] = defaultdict(list)
        self.centre: defaultdict[At, list[Centred]] = defaultdict(list)
        self._collect()

    def _draw(self, rank: int, links: tuple[Link, ...] | frozenset[Link], width: float,
              looks: Looks, part: int = UNDER) -> None:
        rim_width = max(1.0, self.lay.pitch * 0.035)
        for index, link in enumerate(links):
            fill, rim = looks[link.colour]
            self.drawings[_spot(link)].append(_Drawing(
                (rank, index), (link.a.col, link.a.row), (link.b.col, link.b.row), width, fill,
                rim, rim_width if rim else 0.0, part))

    def _peg(self, rank: int, peg: Peg, fill: RGB, rim: RGB, part: int) -> None:
        colours, lay = self.colours, self.lay
        mark = colours.mark if self.view.is_marked_seat(peg.seat) else None
        square = colours.square_black and peg.colour is Colour.BLACK
        shape = _peg_shape(lay.peg_radius, fill, rim, max(1.0, lay.pitch * 0.045), square, mark)
        self.centre[peg.hole.col, peg.hole.row].append(((rank, 0), (0, 0), shape, part))

    def _collect(self) -> None:
        lay, view, colours = self.lay, self.view, self.colours
        inks = colours.ink
        marked = view.marked
        if marked is not None:
            self._draw(_GHOST_LINK, marked.links_removed, lay.link_width,
                       {side: (faded(ink.fill, colours.plate, GHOST), None)
                        for side, ink in inks.items()})
            for peg in marked.pegs_removed:
                ink = inks[peg.colour]
                self._peg(_GHOST_PEG, peg, faded(ink.fill, colours.plate, GHOST),
                          faded(ink.rim, colours.plate, GHOST), UNDER)
        self._draw(_CHAIN_LINK, tuple(view.chain_links), lay.halo_width,
                   dict.fromkeys(Colour, (colours.chain, None)))
        for hole in view.chain_holes:
            glow = Disc(lay.chain_radius, colours.chain)
            self.centre[hole.col, hole.row].append(((_CHAIN_PEG, 0), (0, 0), glow, UNDER))
        fresh = view.fresh
        accented = () if fresh is None else tuple(
            link for link in fresh.links_added if link not in view.chain_links)
        self._draw(_ACCENT_LINK, accented, lay.halo_width,
                   dict.fromkeys(Colour, (colours.accent, None)))
        self._draw(_GAP_LINK, (*view.chain_links, *accented), lay.gap_width,
                   dict.fromkeys(Colour, (colours.plate, None)))
        for hole in view.chain_holes:
            gap = Disc(lay.chain_gap_radius, colours.plate)
            self.centre[hole.col, hole.row].append(((_GAP_PEG, 0), (0, 0), gap, UNDER))
        self._draw(_LINK, view.links, lay.link_width,
                   {side: (ink.fill, ink.rim) for side, ink in inks.items()}, OVER)
        for peg in view.pegs:
            ink = inks[peg.colour]
            self._peg(_PEG, peg, ink.fill, ink.rim, OVER)
        if (last := view.last_peg) is not None:
            self.centre[last.col, last.row].append(
                ((_RING, 0), (0, 0), Ring(lay.ring_radius, lay.ring_width, colours.accent),
                 OVER))

    def tiles(self, on: BoardTiles) -> list[tuple[Tile, tuple[int, int]]]:
        """Every tile with the centre of the hole it is placed from, in pasting order."""
        centre, drawings, centres, bands = self.centre, self.drawings, on.centres, on.bands
        # every link is a knight's move: it passes its two flank holes at pitch / √5
        clearance = on.layout.pitch / math.sqrt(5)
        own: defaultdict[At, list[tuple[Own, list[Context]]]] = defaultdict(list)
        reached: defaultdict[At, list[Context]] = defaultdict(list)
        near: dict[LinkSpot, list[Context]] = {}
        crossings: list[tuple[LinkSpot, LinkSpot]] = []   # each pair once, the first the lower spot
        crossing_spots = _crossing_spots()
        lower = {hole for hole, shapes in centre.items()
                 if any(part == UNDER for *_, part in shapes)}
        for spot, here in drawings.items():
            context: list[Context] = []
            near[spot] = context
            half_width = max(d.width for d in here) / 2
            for flank in _flanks(spot):
                shapes = centre.get(flank)
                if shapes and max(shape.reach for *_, shape, _part in shapes) + half_width \
                        > clearance:
                    context.extend((flank, shape) for shape in shapes)
                    reached[flank].extend(here)
            for d in here:
                if d.part == UNDER:
                    lower.update((d.a, d.b))
                (ax, ay), (bx, by) = centres[d.a], centres[d.b]
                for hole, to in ((d.a, (bx - ax, by - ay)), (d.b, (ax - bx, ay - by))):
                    half = _near_half(to, d.width, d.fill, d.rim, d.rim_width)
                    own[hole].append(((d.place, to, half, d.part), context))
            col, row, dc, dr = spot
            crossings.extend((spot, other) for oc, orow, ec, er in crossing_spots[dc, dr]
                             if (other := (col + oc, row + orow, ec, er)) in drawings)
        last = self.view.last_peg
        last_at = None if last is None else (last.col, last.row)
        placed: list[tuple[Tile, tuple[int, int]]] = []
        final: list[tuple[Tile, tuple[int, int]]] = []
        for hole in centre.keys() | own.keys():
            at = centres[hole]
            halves, shapes = own.get(hole, []), centre.get(hole, [])
            if hole in lower or hole in reached or any(context for _own, context in halves):
                pieces = tuple(tile(on, bands[hole], key) for key in _hole_keys(
                    halves, shapes, hole in lower, reached.get(hole, []), at, centres))
            else:
                pieces = _plain_tiles(on, bands[hole],
                                      tuple(shape for _p, _t, shape, _part in shapes),
                                      tuple((to, half) for (_p, to, half, _part), _c in halves))
            (final if hole == last_at else placed).extend((piece, at) for piece in pieces)
        for spot, other in crossings:
            # crossings lie off both links' ends: only pegs reaching a link (`near`) meet them
            pair = [(d.place, (0, 0), d, CROSSING) for d in drawings[spot]] + [
                (d.place, (0, 0), d, CROSSED) for d in drawings[other]]
            at = centres[spot[:2]]
            placed.append((tile(on, bands[spot[:2]], _in_order(
                pair, near[spot] + near[other], at, centres)), at))
        return placed + final


#: A shape of another hole that meets a tile's: a link drawing, or a hole's centre shape.
Context = _Drawing | tuple[At, Centred]

Centres = dict[At, tuple[int, int]]


def _hole_keys(halves: list[tuple[Own, list[Context]]], centre: list[Centred], lower: bool,
               reached: list[Context], at: tuple[int, int],
               centres: Centres) -> list[tuple[tuple[Shape, int], ...]]:
    """A hole's tiles, as the shapes of each in drawing order; `lower` if it has shapes
    under every hole's pegs and links.

    One tile for the hole where something lies under the pegs and links, else one for each
    quarter holding links, the first painting the peg (and so holding the links passing by
    that it reaches), the others holding it."""
    if lower:
        return [_in_order([*(own for own, _context in halves), *centre],
                          reached + [c for _own, context in halves for c in context],
                          at, centres)]
    peg = tuple((shape, OVER) for _place, _to, shape, _part in centre)
    if not halves:
        return [_in_order(centre, reached, at, centres) if reached else peg]
    quarters: dict[tuple[bool, bool], list[tuple[Own, list[Context]]]] = {}
    for entry in halves:
        dx, dy = entry[0][1]
        quarters.setdefault((dx > 0, dy > 0), []).append(entry)
    keys = []
    for index, (_quarter, group) in enumerate(sorted(quarters.items())):
        context = [c for _own, cs in group for c in cs]
        if index == 0:
            context += reached
        if context:
            held = centre if index == 0 else [(place, to, shape, CONTEXT)
                                              for place, to, shape, _part in centre]
            keys.append(_in_order([*(own for own, _cs in group), *held], context, at, centres))
        else:   # alone, halves overlap only under the peg: order them so equal tiles match
            halves_key = tuple((half, OVER) for half in sorted(own[2] for own, _cs in group))
            keys.append(halves_key + (peg if index == 0 else
                                      tuple((shape, CONTEXT) for shape, _part in peg)))
    return keys


@lru_cache(maxsize=4096)
def _plain_tiles(on: BoardTiles, band: tuple[int, int], centre: tuple[Disc | Ring, ...],
                 halves: tuple[tuple[tuple[int, int], Shape], ...]) -> tuple[Tile, ...]:
    """The tiles of a hole that meets no other hole's shapes and has nothing under its pegs
    and links (most holes): its peg (and ring) over `centre`, and the near `halves` of its
    links, each with the step to the link's far end.

    Kept per hole's look, so a hole that looks as in the last picture costs one look-up;
    `_hole_keys` composes the tiles of the other holes, which the shapes of others reach."""
    keys = _hole_keys([(((0, 0), to, half, OVER), []) for to, half in halves],
                      [((0, 0), (0, 0), shape, OVER) for shape in centre], False, [], (0, 0), {})
    return tuple(tile(on, band, key) for key in keys)


def _in_order(shapes: Sequence[tuple[tuple[int, int], tuple[int, int], Shape | _Drawing, int]],
              context: list[Context], at: tuple[int, int],
              centres: Centres) -> tuple[tuple[Shape, int], ...]:
    """A tile's shapes with other holes' shapes that meet them, in drawing order, placed from
    the pixel `at`."""
    x, y = at

    def placed(shape: Shape | _Drawing) -> Shape:
        if not isinstance(shape, _Drawing):
            return shape
        (ax, ay), (bx, by) = centres[shape.a], centres[shape.b]
        return Bar((ax - x, ay - y), (bx - ax, by - ay), shape.width, shape.fill, shape.rim,
                   shape.rim_width)

    # keyed by place, and by the hole for other holes' shapes (which share their places)
    ranked: dict[tuple[tuple[int, int], At | None], tuple[Shape, int]] = {
        (place, None): (placed(shape), part) for place, _to, shape, part in shapes}
    for c in context:
        if isinstance(c, _Drawing):
            ranked[c.place, None] = (placed(c), CONTEXT)
        else:
            hole, (place, _to, shape, _part) = c
            hx, hy = centres[hole]
            ranked[place, hole] = (Away((hx - x, hy - y), shape), CONTEXT)
    return tuple(ranked[key] for key in sorted(ranked, key=lambda key: key[0]))


def draw_pieces(image: Image.Image, lay: Layout, view: BoardView, options: RenderOptions) -> None:
    """Draw the position of `view` onto `image`, a palette copy of its static layer."""
    placed = _Scene(lay, view, options).tiles(board(view.cols, view.rows, options))
    target = image.im   # the core image: see `Tile`
    for over in (False, True):
        for piece, centre in placed:
            piece.paste(target, centre, over)
