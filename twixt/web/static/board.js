// The TwixT board in the browser: shows the game (drawn by drawing.js), lets its player choose a hole and
// place a peg (with the links they choose in classic), offers the controls the service gives
// its player now (the view's `controls`: the buttons and commands Discord has), and hears of
// every change live. Hand-written, no framework; the service checks everything again.
"use strict";

(function () {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  let words = {};
  let api = "";
  let headers = {};
  let view = null;        // the game as the server last showed it (the live position)
  let shown = null;       // the view on the board (a step of a finished game, or the live one)
  let you = null;         // our seat, or null when watching
  let chosen = null;      // {hole, links: [[a, b]], picked: Set} while a peg is proposed
  let focusHole = null;
  let resignArmed = false;
  let busy = false;

  function say(key, values) {
    let text = words[key] || key;
    for (const [name, value] of Object.entries(values || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const { holeName, parseHole, isCorner } = window.TwixtDrawing;

  function message(text) { $("message").textContent = text || ""; }

  async function call(path, options) {
    const response = await fetch(api + path, Object.assign({ headers: Object.assign(
      { "Accept": "application/json" }, headers), cache: "no-store" }, options || {}));
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.status + " " + response.statusText }; }
    if (!response.ok) throw new Error(data.error || String(response.status));
    return data;
  }

  // --- drawing -----------------------------------------------------------------------

  // the board is drawn by drawing.js; the page chooses and plays on it
  function draw() {
    const svg = window.TwixtDrawing.board(shown, { chosen, colour: seatColour(), say });
    svg.addEventListener("click", onBoardClick);
    svg.addEventListener("keydown", onBoardKey);
    $("board-wrap").prepend(svg);
    const old = svg.nextElementSibling;
    if (old && old.id === "board") old.remove();
    const focus = svg.querySelector(`[data-hole="${focusHole || "?"}"]`) || svg.querySelector(".hole");
    focus.setAttribute("tabindex", "0");
    focusHole = focus.getAttribute("data-hole");
  }

  function seatColour() {
    const seat = view.seats.find((s) => s.seat === you);
    return seat ? seat.colour : "red";
  }

  // --- the words around the board -----------------------------------------------------

  function describe() {
    const v = shown;
    const players = $("players");
    players.replaceChildren(...v.seats.map((s) => {
      const item = el("span", { class: "player " + s.colour + (s.seat === v.to_move ? " moving" : "") });
      item.append(el("span", { class: "swatch " + s.colour, "aria-hidden": "true" }));
      item.append(document.createTextNode(`${s.name} (${say(s.colour === "red" ? "Red" : "Black")})`));
      return item;
    }));
    const lines = [];
    if (v.outcome) {
      const reason = say("reason_" + v.outcome.reason);
      lines.push(v.outcome.winner ? say("won", { colour: say(v.outcome.winner === "red" ? "Red" : "Black"), reason })
        : say("drawn", { reason }));
    } else if (v.aborted) {
      lines.push(say("aborted"));
    } else if (v.to_move !== null) {
      const mover = v.seats[v.to_move];
      lines.push(v.to_move === you ? say("your_move") : say("to_move", { name: mover.name }));
      const clock = v.clock && (typeof v.clock === "string" ? v.clock : v.clock[document.documentElement.lang]);
      if (clock) lines.push(clock);
    }
    if (v.last_text) lines.push(say("last_move", { move: v.last_text }));
    if (you !== null) {
      const seat = v.seats.find((s) => s.seat === you);
      lines.push(say("you_play", { colour: say(seat.colour === "red" ? "Red" : "Black") }));
    } else {
      lines.push(say("watching"));
    }
    if (v.draw_offered_by && v.active) lines.push(say("draw_offered", { colour: say(v.draw_offered_by === "red" ? "Red" : "Black") }));
    if (v.takeback_by !== null && v.active) lines.push(say("takeback_asked", { name: v.seats[v.takeback_by].name }));
    $("status").textContent = lines.join(" · ");
    const clocks = $("clocks");
    clocks.replaceChildren(...v.seat_clocks.map((line) => el("li", {}, line)));
    clocks.hidden = !v.seat_clocks.length;
    const list = $("moves").querySelector("ol");
    list.replaceChildren(...view.history.map((text) => el("li", {}, text)));
    list.scrollTop = list.scrollHeight;
    $("moves").querySelector("h2").textContent = say("moves");
  }

  function button(key, onPress, extra) {
    const node = el("button", Object.assign({ type: "button", "data-action": key }, extra || {}), say(key));
    node.addEventListener("click", onPress);
    return node;
  }

  // a control of the view: a button, or (one that takes the player's words) a small form
  const offered = (name) => view.controls.find((c) => c.name === name);
  function controlButton(control, onPress, extra) {
    const node = el("button", Object.assign({ type: "button", "data-control": control.name }, extra || {}), control.label);
    node.addEventListener("click", onPress);
    return node;
  }
  function controlForm(control) {
    const form = el("form", { class: "control", "data-control": control.name });
    const id = "control-" + control.name;
    const field = el("input", { type: "text", id, name: "text", maxlength: "1000",
      "aria-label": control.label, autocomplete: "off" });
    if (control.example) field.placeholder = control.example;
    form.append(field, el("button", { type: "submit" }, control.label));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      act({ control: control.name, text: field.value.trim() });
    });
    return form;
  }

  function actions() {
    const bar = $("actions");
    const items = [];
    if (shown === view) {
      for (const control of view.controls) {
        // a peg is chosen on the board, and placed (with a draw offer) from the choice;
        // resigning, asked to be confirmed, comes last; any other control the view offers
        // (whatever a command declares) is a button, or a field for its text
        if (control.name === "move" || control.name === "move-offer-draw" || control.name === "resign") continue;
        if (control.text) items.push(controlForm(control));
        else items.push(controlButton(control, () => act({ control: control.name })));
      }
      const resign = offered("resign");
      if (resign) items.push(controlButton(resign, onResign, { class: "danger" }));
    }
    // what the player is typing into a control survives a redraw (a live change)
    const typing = new Map([...bar.querySelectorAll("input[type=text]")].map((f) => [f.id, f.value]));
    const focused = document.activeElement && document.activeElement.id;
    bar.replaceChildren(...items);
    for (const [id, value] of typing) {
      const field = $(id);
      if (field) field.value = value;
    }
    if (focused && typing.has(focused) && $(focused)) $(focused).focus();
    steps();
  }

  function onResign() {
    if (!resignArmed) {
      resignArmed = true;
      message(say("resign_sure"));
      return;
    }
    resignArmed = false;
    act({ control: "resign" });
  }

  function steps() {
    const nav = $("steps");
    if (view.active || view.turns === 0) { nav.hidden = true; return; }
    nav.hidden = false;
    const at = shown.step;
    const go = (n) => () => showStep(Math.max(0, Math.min(view.turns, n)));
    nav.replaceChildren(
      button("first", go(0), at === 0 ? { disabled: "" } : {}),
      button("back", go(at - 1), at === 0 ? { disabled: "" } : {}),
      el("span", { class: "step", "aria-live": "polite" }, say("step", { step: at, turns: view.turns })),
      button("forward", go(at + 1), at === view.turns ? { disabled: "" } : {}),
      button("last", go(view.turns), at === view.turns ? { disabled: "" } : {}));
  }

  async function showStep(n) {
    try {
      shown = n === view.turns ? view : await call("state?step=" + n);
      render();
      const again = $("steps").querySelector(`[data-action="${n === 0 ? "forward" : "back"}"]`);
      if (again && !again.disabled) again.focus();
    } catch (error) { message(error.message); }
  }

  function choice() {
    const box = $("choice");
    if (!chosen) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const items = [];
    if (chosen.auto) {
      items.push(el("p", { class: "hint" }, say(chosen.links.length ? "auto_links" : "no_links")));
    } else if (!chosen.links.length) {
      items.push(el("p", { class: "hint" }, say("no_links")));
    } else {
      const group = el("div", { class: "links-choice" });
      for (const [, b] of chosen.links) {
        const id = "link-" + b;
        const box = el("input", { type: "checkbox", id });
        box.checked = chosen.picked.has(b);
        box.addEventListener("change", () => {
          if (box.checked) chosen.picked.add(b); else chosen.picked.delete(b);
          draw();
        });
        const label = el("label", { for: id });
        label.append(box, document.createTextNode(" " + say("link_to", { hole: b })));
        group.append(label);
      }
      items.push(group);
    }
    const place = button("place", () => onPlace("move"), { class: "primary" });
    const linked = chosen.auto ? chosen.links.map(([, b]) => b) : [...chosen.picked];
    place.textContent = say("place", { hole: chosen.hole }) + (linked.length ? " — " + linked.join(", ") : "");
    items.push(place);
    const withDraw = offered("move-offer-draw");
    if (withDraw) items.push(controlButton(withDraw, () => onPlace(withDraw.name)));
    items.push(button("cancel", cancel));
    box.replaceChildren(...items);
  }

  function render() {
    draw();
    describe();
    actions();
    choice();
  }

  // --- choosing and playing -----------------------------------------------------------

  function onBoardClick(event) {
    const hole = event.target.closest && event.target.closest(".hole");
    if (hole) choose(hole.getAttribute("data-hole"));
  }

  function onBoardKey(event) {
    const target = event.target.closest && event.target.closest(".hole");
    if (!target) return;
    const [c, r] = parseHole(target.getAttribute("data-hole"));
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      let [nc, nr] = [c + moves[event.key][0], r + moves[event.key][1]];
      if (isCorner(nc, nr, shown)) { nc += moves[event.key][0]; nr += moves[event.key][1]; }
      moveFocus(nc, nr);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      moveFocus(event.key === "Home" ? (r === 0 || r === shown.rows - 1 ? 1 : 0) : (r === 0 || r === shown.rows - 1 ? shown.cols - 2 : shown.cols - 1), r);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(target.getAttribute("data-hole"));
    }
  }

  // Escape cancels a chosen peg (or a Resign pressed once) wherever the focus is: on the
  // board, on Place, in a link's box
  function onPageKey(event) {
    if (event.key !== "Escape" || (!chosen && !resignArmed)) return;
    event.preventDefault();
    if (resignArmed) { resignArmed = false; message(""); }
    cancel();
  }

  function moveFocus(c, r) {
    const v = shown;
    if (c < 0 || r < 0 || c >= v.cols || r >= v.rows) return;
    const next = document.querySelector(`[data-hole="${holeName(c, r)}"]`);
    if (!next) return;
    document.querySelectorAll(".hole[tabindex='0']").forEach((n) => n.setAttribute("tabindex", "-1"));
    next.setAttribute("tabindex", "0");
    next.focus();
    focusHole = holeName(c, r);
  }

  async function choose(hole) {
    focusHole = hole;
    resignArmed = false;
    if (you === null || shown !== view || !view.active) return;
    try {
      const found = await call("preview?hole=" + encodeURIComponent(hole));
      chosen = { hole, links: found.links, auto: view.rules === "pp",
        picked: new Set(found.links.map(([, b]) => b)) };
      message("");
    } catch (error) {
      chosen = null;
      message(error.message);
    }
    render();
    const place = $("choice").querySelector('[data-action="place"]');
    if (place) place.focus(); else refocus();
  }

  function cancel() {
    chosen = null;
    render();
    refocus();
  }

  function refocus() {
    const node = document.querySelector(`[data-hole="${focusHole}"]`);
    if (node) node.focus();
  }

  function onPlace(name) {
    const links = chosen.auto ? [] : [...chosen.picked];
    act({ control: name, text: chosen.hole + (links.length ? " link " + links.join(" ") : "") });
  }

  async function act(body) {
    if (busy) return;
    busy = true;
    try {
      const done = await call("act", { method: "POST", body: JSON.stringify(body),
        headers: Object.assign({ "Content-Type": "application/json" }, headers) });
      chosen = null;
      message(done.said || "");
      await refresh();
      refocus();
    } catch (error) {
      message(error.message);
    } finally {
      busy = false;
    }
  }

  async function refresh() {
    const fresh = await call("state");
    accept(fresh);
  }

  function accept(fresh) {
    if (view && fresh.version < view.version) return;
    if (fresh.you !== undefined) you = fresh.you;
    const stepping = view && shown !== view;
    if (view && fresh.version !== view.version) { chosen = null; message(""); }
    view = fresh;
    if (!stepping) shown = view;
    render();
  }

  // --- live ---------------------------------------------------------------------------

  async function live() {
    let wait = 1000;
    for (;;) {
      try {
        const response = await fetch(api + "live", { headers, cache: "no-store" });
        if (!response.ok || !response.body) throw new Error(String(response.status));
        $("board-wrap").classList.remove("stale");
        wait = 1000;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = event.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
            if (data) accept(JSON.parse(data));
          }
        }
      } catch (error) {
        // said below, then tried again
      }
      $("board-wrap").classList.add("stale");
      message(say("reconnecting"));
      await new Promise((done) => setTimeout(done, wait));
      wait = Math.min(wait * 2, 10000);
      try { await refresh(); message(""); } catch (error) { /* the next try says it */ }
    }
  }

  // --- the player's other games (a link's page) ---------------------------------------

  async function otherGames() {
    let found;
    try { found = await call("games"); } catch (error) { return; }  // the board says enough
    const nav = $("games");
    nav.hidden = !found.games.length;
    nav.querySelector("h2").textContent = say("other_games");
    nav.querySelector("ul").replaceChildren(...found.games.map((game) => {
      const item = el("li", game.yours ? { class: "yours" } : {});
      item.append(el("a", { href: game.link }, game.summary));
      return item;
    }));
  }

  // --- start --------------------------------------------------------------------------

  // the Activity: Discord's sign-in gives the key to the channel's game
  async function signIn() {
    const params = new URLSearchParams(location.search);
    if (!params.get("frame_id") || !window.TwixtActivity) throw new Error(say("not_in_discord"));
    $("status").textContent = say("signing_in");
    let signed;
    try {
      signed = await window.TwixtActivity.signIn(body.dataset.clientId);
    } catch (error) {
      throw new Error(say("sign_in_failed", { reason: error.message }));
    }
    api = "/api/a/" + encodeURIComponent(signed.instanceId) + "/";
    headers = { "Authorization": "Bearer " + signed.accessToken };
  }

  async function start() {
    const lang = document.documentElement.lang;
    const wording = fetch("/api/words?lang=" + encodeURIComponent(lang)).then((r) => r.json());
    let viewing = null;
    if (body.dataset.mode !== "activity") {
      // a link's board: its view is asked for together with the words
      api = "/api/g/" + encodeURIComponent(location.pathname.split("/").pop()) + "/";
      viewing = call("state");
      viewing.catch(() => {});  // said below, once the words are there
    }
    words = await wording;
    $("help").textContent = say("keys");
    try {
      if (!viewing) {
        await signIn();
        viewing = call("state");
      }
      accept(await viewing);
    } catch (error) {
      message(error.message);
      return;
    }
    document.addEventListener("keydown", onPageKey);
    if (body.dataset.mode !== "activity") otherGames();
    live();
  }

  start();
})();
