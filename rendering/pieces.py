"""Pegs and links on the board, with the last move, removals and the winning chain marked.

Drawn back to front: removed pieces faintly, halos (winning chain, then the last move's new
links), links, pegs, and the ring around the last peg on top.
"""

from __future__ import annotations

from PIL import Image

from rendering.layout import Layout
from rendering.sprites import Sprite, bar, disc, ring
from rendering.themes import GHOST, RGB, Theme, faded
from rendering.view import BoardView
from rules import Colour, Link, Peg


def _link(image: Image.Image, lay: Layout, link: Link, width: float, fill: RGB,
          rim: RGB | None = None) -> None:
    rim_width = max(1.0, lay.pitch * 0.035) if rim else 0.0
    (ax, ay), (bx, by) = lay.centre(link.a), lay.centre(link.b)
    bar(bx - ax, by - ay, width, fill, rim, rim_width).paste(image, (ax, ay))


def _peg_sprite(lay: Layout, view: BoardView, colours: Theme, peg: Peg, radius: float,
                fill: RGB, rim: RGB | None) -> Sprite:
    mark = colours.mark if view.is_marked_seat(peg.seat) else None
    square = colours.square_black and peg.colour is Colour.BLACK
    return disc(radius, fill, rim, max(1.0, lay.pitch * 0.045) if rim else 0.0, square, mark)


def draw_pieces(image: Image.Image, lay: Layout, view: BoardView, colours: Theme) -> None:
    """Draw the position of `view` onto `image`, a copy of its static layer."""
    width = lay.link_width
    marked = view.marked
    if marked is not None:
        for link in marked.links_removed:
            ink = colours.ink[link.colour]
            _link(image, lay, link, width, faded(ink.fill, colours.plate, GHOST))
        for peg in marked.pegs_removed:
            ink = colours.ink[peg.colour]
            _peg_sprite(lay, view, colours, peg, lay.peg_radius,
                        faded(ink.fill, colours.plate, GHOST),
                        faded(ink.rim, colours.plate, GHOST)).paste(image, lay.centre(peg.hole))
    halo = lay.halo_width
    for link in view.chain_links:
        _link(image, lay, link, halo, colours.chain)
    for hole in view.chain_holes:
        disc(lay.chain_radius, colours.chain).paste(image, lay.centre(hole))
    if marked is not None:
        for link in marked.links_added:
            _link(image, lay, link, halo, colours.accent)
    for link in view.links:
        ink = colours.ink[link.colour]
        _link(image, lay, link, width, ink.fill, ink.rim)
    for peg in view.pegs:
        ink = colours.ink[peg.colour]
        _peg_sprite(lay, view, colours, peg, lay.peg_radius, ink.fill, ink.rim).paste(
            image, lay.centre(peg.hole))
    if view.last_peg is not None:
        ring(lay.ring_radius, lay.ring_width, colours.accent).paste(
            image, lay.centre(view.last_peg))
