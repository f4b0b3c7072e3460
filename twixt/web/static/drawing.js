// The TwixT board drawn as SVG, as the bot's pictures draw it (twixt/rendering): the plate,
// the border rows tinted towards their owner and framed by two lines of their colour, holes,
// pegs and links in the pictures' proportions of the hole pitch, the last move ringed and its
// links haloed, a winning chain haloed in violet, a faint ghost of what the last turn removed,
// and the coordinates. Its colours are the pictures' own (/static/colours.css, made by the
// server from the rendering's themes), light or dark as the system prefers, in the player's
// palette (the view's `palette`: colour-blind draws Black's pegs square).
//
// On a touch screen a board whose holes are smaller than a finger is chosen from in two
// steps: a tap zooms in on that part of the board (holes then at least TARGET CSS px across),
// a drag pans, a tap on a hole chooses it, and "Whole board" (or the next position) zooms
// out. A mouse, a pen on a large board, and the keyboard choose at once.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  //: the hole pitch in the drawing's units; every size below is a part of it, as in
  //: twixt/rendering/layout.py
  const P = 20;
  const PEG = 0.31 * P, PEG_RIM = 0.045 * P, HOLE = 0.09 * P;
  const LINK = 0.24 * P, LINK_RIM = 0.035 * P;
  const GAP = 0.13 * P, BAND = 0.16 * P;
  const RING = 0.17 * P, RING_RADIUS = PEG + 0.06 * P + RING;
  const BORDER = 0.15 * P;
  const SQUARE_SIDE = 0.9, SQUARE_CORNER = 0.25, MARK = 0.3;
  //: the least a touch target measures, in CSS px (Apple's and WCAG's 44), with room to spare
  const TARGET = 44, ZOOMED = 54;
  //: a pointer that moves this far (CSS px) between down and up pans instead of tapping
  const DRAG = 8;

  function el(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function letters(col) {
    let text = "";
    col += 1;
    while (col > 0) { const r = (col - 1) % 26; text = String.fromCharCode(65 + r) + text; col = Math.floor((col - 1) / 26); }
    return text;
  }
  const holeName = (c, r) => letters(c) + (r + 1);
  function parseHole(name) {
    const m = /^([A-Z]+)([0-9]+)$/.exec(name);
    let col = 0;
    for (const ch of m[1]) col = col * 26 + (ch.charCodeAt(0) - 64);
    return [col - 1, Number(m[2]) - 1];
  }
  const isCorner = (c, r, v) => (c === 0 || c === v.cols - 1) && (r === 0 || r === v.rows - 1);

  // --- geometry ------------------------------------------------------------------------

  // labels every hole where they fit, else every second (boards wider than 30)
  function geometry(v) {
    const step = Math.max(v.cols, v.rows) > 30 ? 2 : 1;
    const label = step === 1 ? 0.72 * P : 1.0 * P;
    const margin = Math.round(label * 1.9);
    return { step, label, margin, width: 2 * margin + v.cols * P, height: 2 * margin + v.rows * P,
      at: (c, r) => [margin + c * P + P / 2, margin + r * P + P / 2] };
  }

  // --- the picture -----------------------------------------------------------------------

  // The board of view `v` as an <svg>; `scene` says what the page adds: `chosen` (the peg its
  // player proposes, with its links), `colour` (theirs), `say` (the page's words).
  function board(v, scene) {
    const g = geometry(v);
    document.documentElement.setAttribute("data-palette", v.palette || "normal");
    const square = getComputedStyle(document.documentElement).getPropertyValue("--black-shape").trim() === "square";
    const double = v.seats.length > 2;
    const svg = el("svg", { id: "board", viewBox: `0 0 ${g.width} ${g.height}`, role: "group",
      "aria-label": scene.say("board"), "aria-describedby": "help" });
    svg.append(el("rect", { class: "plate", width: g.width, height: g.height, rx: P * 0.4 }));
    svg.append(borders(v, g), labels(v, g));
    const holes = el("g", { class: "dots" });
    for (let r = 0; r < v.rows; r++) {
      for (let c = 0; c < v.cols; c++) {
        if (isCorner(c, r, v)) continue;
        const [x, y] = g.at(c, r);
        holes.append(el("circle", { cx: x, cy: y, r: HOLE }));
      }
    }
    svg.append(holes);
    const link = (a, b, width, cls) => {
      const [ax, ay] = g.at(...parseHole(a));
      const [bx, by] = g.at(...parseHole(b));
      return el("line", { x1: ax, y1: ay, x2: bx, y2: by, "stroke-width": width, class: cls });
    };
    const disc = (hole, radius, cls) => {
      const [x, y] = g.at(...parseHole(hole));
      return el("circle", { cx: x, cy: y, r: radius, class: cls });
    };
    const peg = (hole, colour, seat, cls) => {
      const [x, y] = g.at(...parseHole(hole));
      const group = el("g", { class: "peg " + colour + (cls ? " " + cls : "") });
      if (square && colour === "black") {
        const half = PEG * SQUARE_SIDE - PEG_RIM / 2;
        group.append(el("rect", { x: x - half, y: y - half, width: 2 * half, height: 2 * half,
          rx: PEG * SQUARE_CORNER, "stroke-width": PEG_RIM }));
      } else {
        group.append(el("circle", { cx: x, cy: y, r: PEG - PEG_RIM / 2, "stroke-width": PEG_RIM }));
      }
      if (double && seat >= 2) group.append(el("circle", { cx: x, cy: y, r: PEG * MARK, class: "mark" }));
      return group;
    };
    const pieces = el("g", { class: "pieces", "aria-hidden": "true" });
    // what the last turn removed, faintly
    for (const [a, b, colour] of v.removed_links || []) pieces.append(link(a, b, LINK, "link ghost " + colour));
    for (const [hole, colour] of v.removed_pegs || []) pieces.append(peg(hole, colour, 0, "ghost"));
    // halos: the winning chain in violet, the last move's new links in the accent; each set
    // off from its pieces by a strip of bare plate
    const chain = new Set((v.chain_links || []).map(([a, b]) => a + "-" + b));
    const fresh = v.outcome ? [] : (v.last_links || []).filter(([a, b]) => !chain.has(a + "-" + b));
    const halo = LINK + 2 * GAP + 2 * BAND;
    for (const [a, b] of v.chain_links || []) pieces.append(link(a, b, halo, "halo chain"));
    for (const hole of v.chain_holes || []) pieces.append(disc(hole, PEG + GAP + BAND, "halo chain"));
    for (const [a, b] of fresh) pieces.append(link(a, b, halo, "halo fresh"));
    for (const [a, b] of [...(v.chain_links || []), ...fresh]) pieces.append(link(a, b, LINK + 2 * GAP, "gap"));
    for (const hole of v.chain_holes || []) pieces.append(disc(hole, PEG + GAP, "gap"));
    for (const [a, b, colour] of v.links) {
      pieces.append(link(a, b, LINK, "link rim " + colour), link(a, b, LINK - 2 * LINK_RIM, "link " + colour));
    }
    const chosen = scene.chosen;
    if (chosen) {
      for (const [a, b] of chosen.links) {
        const picked = chosen.auto || chosen.picked.has(b);
        pieces.append(link(a, b, LINK, "link proposed " + scene.colour + (picked ? "" : " unpicked")));
      }
    }
    for (const [hole, colour, seat] of v.pegs) pieces.append(peg(hole, colour, seat));
    if (chosen) pieces.append(peg(chosen.hole, scene.colour, v.you, "proposed"));
    if (!v.outcome) {
      for (const hole of v.last) {
        const ring = disc(hole, RING_RADIUS - RING / 2, "ring");
        ring.setAttribute("stroke-width", RING);
        pieces.append(ring);
      }
    }
    svg.append(pieces);
    svg.append(targets(v, g, scene));
    zoom.attach(svg, v, g, scene.say);
    return svg;
  }

  // Each side's border rows, tinted, each framed by two lines of the side's colour: one on
  // the field's side, one on the margin's (twixt/rendering/static.py).
  function borders(v, g) {
    const group = el("g", { class: "borders", "aria-hidden": "true" });
    const x0 = g.margin + P, y0 = g.margin + P;
    const across = (v.cols - 2) * P, down = (v.rows - 2) * P;
    const bottom = g.margin + (v.rows - 1) * P, right = g.margin + (v.cols - 1) * P;
    for (const y of [g.margin, bottom]) {
      group.append(el("rect", { class: "tint red", x: x0, y, width: across, height: P }));
      for (const edge of [y, y + P]) {
        group.append(el("rect", { class: "line red", x: x0, y: edge - BORDER / 2, width: across, height: BORDER }));
      }
    }
    for (const x of [g.margin, right]) {
      group.append(el("rect", { class: "tint black", x, y: y0, width: P, height: down }));
      for (const edge of [x, x + P]) {
        group.append(el("rect", { class: "line black", x: edge - BORDER / 2, y: y0, width: BORDER, height: down }));
      }
    }
    return group;
  }

  function labels(v, g) {
    const group = el("g", { class: "labels", "aria-hidden": "true", "font-size": g.label });
    const middle = g.margin / 2;
    for (let c = 0; c < v.cols; c += g.step) {
      const [x] = g.at(c, 0);
      for (const y of [middle, g.height - middle]) group.append(el("text", { x, y }, letters(c)));
    }
    for (let r = 0; r < v.rows; r += g.step) {
      const [, y] = g.at(0, r);
      for (const x of [middle, g.width - middle]) group.append(el("text", { x, y }, String(r + 1)));
    }
    return group;
  }

  // the holes as the page's buttons: a square the size of the pitch, named by the hole and
  // what is in it (docs/web.md, "The page's contract")
  function targets(v, g, scene) {
    const say = scene.say;
    const pegs = new Map(v.pegs.map(([hole, colour]) => [hole, colour]));
    const last = new Set(v.last);
    const group = el("g", { class: "holes" });
    for (let r = 0; r < v.rows; r++) {
      for (let c = 0; c < v.cols; c++) {
        if (isCorner(c, r, v)) continue;
        const name = holeName(c, r);
        const [x, y] = g.at(c, r);
        const colour = pegs.get(name);
        const proposed = scene.chosen && scene.chosen.hole === name;
        let label = colour ? say("hole_peg", { hole: name, colour: say(colour) })
          : proposed ? say("hole_new", { hole: name }) : say("hole_empty", { hole: name });
        if (last.has(name)) label += ", " + say("hole_last");
        const hole = el("g", { role: "button", tabindex: "-1", "aria-label": label,
          "data-hole": name, class: "hole" });
        hole.append(el("rect", { x: x - P / 2, y: y - P / 2, width: P, height: P, class: "hit" }));
        group.append(hole);
      }
    }
    return group;
  }

  // --- zoom: a target for every finger ---------------------------------------------------

  const zoom = {
    svg: null, full: null, box: null, version: null, button: null, say: null, geometry: null,
    pointer: null,   // {id, type, x, y, box, moved} while a pointer is down on the board

    // a new drawing of the board: keeps the part zoomed into, unless the position changed
    attach(svg, v, g, say) {
      this.say = say;
      this.geometry = g;
      this.cols = v.cols;
      this.rows = v.rows;
      this.full = { x: 0, y: 0, w: g.width, h: g.height };
      if (v.version !== this.version || !this.box || this.box.w > g.width) this.box = null;
      this.version = v.version;
      this.svg = svg;
      svg.addEventListener("pointerdown", (e) => this.down(e));
      svg.addEventListener("pointermove", (e) => this.move(e));
      svg.addEventListener("pointerup", (e) => this.up(e));
      svg.addEventListener("pointercancel", () => { this.pointer = null; });
      svg.addEventListener("click", (e) => this.click(e), true);
      svg.addEventListener("focusin", (e) => this.reveal(e.target));
      this.show(this.box);
    },

    // CSS px a hole measures on the screen now, the whole board shown
    pitch() {
      const width = this.svg.getBoundingClientRect().width;
      const height = this.svg.getBoundingClientRect().height;
      return P * Math.min(width / this.full.w, height / this.full.h);
    },

    show(box) {
      this.box = box;
      const b = box || this.full;
      this.svg.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
      this.svg.classList.toggle("zoomed", !!box);
      this.edges(box);
      this.toggleButton();
    },

    // zoomed in, the part's column letters and row numbers stand along its top and left
    // edges, so that the holes keep their names in sight
    edges(box) {
      const old = this.svg.querySelector(".edge-labels");
      if (old) old.remove();
      if (!box) return;
      const g = this.geometry;
      const band = P * 0.5;
      const group = el("g", { class: "edge-labels", "aria-hidden": "true", "font-size": P * 0.34 });
      group.append(el("rect", { x: box.x, y: box.y, width: box.w, height: band }),
        el("rect", { x: box.x, y: box.y + band, width: band, height: box.h - band }));
      for (let c = 0; c < this.cols; c++) {
        const [x] = g.at(c, 0);
        if (x > box.x + band + P * 0.2 && x < box.x + box.w) group.append(el("text", { x, y: box.y + band / 2 }, letters(c)));
      }
      for (let r = 0; r < this.rows; r++) {
        const [, y] = g.at(0, r);
        if (y > box.y + band + P * 0.2 && y < box.y + box.h) group.append(el("text", { x: box.x + band / 2, y }, String(r + 1)));
      }
      this.svg.append(group);
    },

    // "Whole board" while zoomed in; on a touch screen whose holes are too small for a
    // finger, a line under the board that says a tap zooms in
    toggleButton() {
      const wrap = document.getElementById("board-wrap");
      if (!this.button) {
        this.button = document.createElement("button");
        this.button.type = "button";
        this.button.className = "whole-board";
        this.button.addEventListener("click", () => this.animate(null));
        this.hint = document.createElement("p");
        this.hint.className = "hint zoom-hint";
        this.hint.hidden = true;
        wrap.append(this.button, this.hint);
      }
      this.button.textContent = this.say("whole_board");
      this.button.hidden = !this.box;
      this.hint.textContent = this.say("zoom_hint");
      requestAnimationFrame(() => {
        this.hint.hidden = !!this.box || !matchMedia("(pointer: coarse)").matches || this.pitch() >= TARGET;
      });
    },

    // zoomed in around the board point (x, y), holes ZOOMED CSS px across
    around(x, y) {
      const scale = ZOOMED / this.pitch();
      const w = this.full.w / scale, h = this.full.h / scale;
      return this.clamp({ x: x - w / 2, y: y - h / 2, w, h });
    },

    clamp(b) {
      const f = this.full;
      return { x: Math.max(0, Math.min(f.w - b.w, b.x)), y: Math.max(0, Math.min(f.h - b.h, b.y)), w: b.w, h: b.h };
    },

    // from one box to another in a few frames (none when the reader prefers less motion)
    animate(to) {
      const from = this.box || this.full, end = to || this.full;
      const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
      const start = performance.now(), span = still ? 0 : 160;
      const frame = (now) => {
        const t = span ? Math.min(1, (now - start) / span) : 1;
        const e = t * (2 - t);
        const mix = (a, b) => a + (b - a) * e;
        this.show({ x: mix(from.x, end.x), y: mix(from.y, end.y), w: mix(from.w, end.w), h: mix(from.h, end.h) });
        if (t < 1) requestAnimationFrame(frame); else this.show(to);
      };
      requestAnimationFrame(frame);
    },

    // the board point under a pointer's CSS position
    point(clientX, clientY) {
      const rect = this.svg.getBoundingClientRect();
      const b = this.box || this.full;
      const scale = Math.min(rect.width / b.w, rect.height / b.h);
      const left = rect.left + (rect.width - b.w * scale) / 2, top = rect.top + (rect.height - b.h * scale) / 2;
      return [b.x + (clientX - left) / scale, b.y + (clientY - top) / scale, scale];
    },

    down(e) {
      this.pointer = { id: e.pointerId, type: e.pointerType, x: e.clientX, y: e.clientY, box: this.box, moved: false };
    },

    move(e) {
      const p = this.pointer;
      if (!p || p.id !== e.pointerId || !this.box || p.type === "mouse") return;
      const dx = e.clientX - p.x, dy = e.clientY - p.y;
      if (!p.moved && Math.hypot(dx, dy) < DRAG) return;
      p.moved = true;
      const [, , scale] = this.point(e.clientX, e.clientY);
      this.show(this.clamp({ x: p.box.x - dx / scale, y: p.box.y - dy / scale, w: p.box.w, h: p.box.h }));
    },

    up(e) {
      if (this.pointer && this.pointer.id === e.pointerId) this.pointer.done = true;
    },

    // a tap: zooms in first when the holes are too small for a finger; a drag is no tap
    click(e) {
      const p = this.pointer;
      this.pointer = null;
      if (!p) return;
      const touch = p.type === "touch" || p.type === "pen";
      if (p.moved || (touch && !this.box && this.pitch() < TARGET)) {
        e.stopPropagation();
        e.preventDefault();
        if (!p.moved) {
          const [x, y] = this.point(e.clientX, e.clientY);
          this.animate(this.around(x, y));
        }
      }
    },

    // a hole reached by the keyboard is brought into the part zoomed into
    reveal(target) {
      const name = target && target.getAttribute && target.getAttribute("data-hole");
      if (!name || !this.box) return;
      const hit = target.querySelector(".hit");
      const x = Number(hit.getAttribute("x")), y = Number(hit.getAttribute("y"));
      const b = this.box;
      if (x >= b.x && y >= b.y && x + P <= b.x + b.w && y + P <= b.y + b.h) return;
      this.show(this.clamp({ x: Math.min(Math.max(b.x, x + P - b.w), x), y: Math.min(Math.max(b.y, y + P - b.h), y), w: b.w, h: b.h }));
    },
  };

  window.TwixtDrawing = { board, holeName, parseHole, isCorner };
})();
