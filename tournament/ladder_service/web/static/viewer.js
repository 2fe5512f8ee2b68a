// The match viewer: draws the board of a finished match's replay, frame by frame, or of a
// running match as it is played (Server-Sent Events, with the match's spectator delay).
// Frames are public views only (the server sends observe(None)); this script never sees more.
// Everything is built with DOM calls and textContent: no HTML from data is ever parsed.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const CHUNK = 100;
  const root = document.getElementById("viewer");
  if (!root) return;
  const matchId = root.dataset.match;
  const board = document.getElementById("board");
  const panel = document.getElementById("panel");
  const eventsList = document.getElementById("events");
  const stepText = document.getElementById("step");
  const frames = new Map();
  const loading = new Map();
  let meta = null;
  let total = 0;
  let index = 0;
  let timer = null;
  let moves = 0; // moves asked for (see show)
  let loadedTo = -1; // the highest frame loaded
  let ready = false; // the first frame is drawn: moves are made at once
  const queued = []; // moves asked for before that

  // ------------------------------------------------------------------ small DOM helpers

  function svgEl(name, attrs, parent, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = String(text);
    if (parent) parent.appendChild(node);
    return node;
  }

  function htmlEl(name, className, parent, text) {
    const node = document.createElement(name);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    if (parent) parent.appendChild(node);
    return node;
  }

  function svgRoot(width, height, label) {
    const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "board-svg" });
    svg.setAttribute("aria-label", label);
    return svg;
  }

  function seatName(seat) {
    const found = meta && meta.seats[seat];
    return found ? found.name : `seat ${seat + 1}`;
  }

  function fact(parent, label, value) {
    const row = htmlEl("div", "fact", parent);
    htmlEl("span", "label", row, label);
    htmlEl("span", "value", row, value);
  }

  function pretty(name) {
    return String(name || "").replace(/_/g, " ");
  }

  // ------------------------------------------------------------------ Rumble Nation

  function drawRumbleNation(view) {
    const svg = svgRoot(1000, 700, "Rumble Nation map");
    const layout = meta.board;
    const at = new Map(layout.areas.map((a) => [a.id, a]));
    for (const [kind, links] of [["land", layout.land], ["sea", layout.sea]]) {
      for (const [a, b] of links) {
        const p = at.get(a), q = at.get(b);
        svgEl("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: `link ${kind}` }, svg);
      }
    }
    for (const area of view.areas) {
      const place = at.get(area.id);
      if (!place) continue;
      const g = svgEl("g", { class: `area${area.resolved ? " resolved" : ""}`, "data-area": area.id }, svg);
      svgEl("circle", { cx: place.x, cy: place.y, r: 54, class: "area-disc" }, g);
      svgEl("title", {}, g, `${place.name} (${place.label})`);
      svgEl("circle", { cx: place.x, cy: place.y - 54, r: 17, class: "castle" }, g);
      svgEl("text", { x: place.x, y: place.y - 48, class: "castle-number", "text-anchor": "middle" }, g, area.castle);
      svgEl("text", { x: place.x, y: place.y + 72, class: "area-name", "text-anchor": "middle" }, g, place.name);
      const seats = area.soldiers.length;
      const width = 30;
      const left = place.x - (seats * width) / 2;
      area.soldiers.forEach((count, seat) => {
        const x = left + seat * width;
        const cls = `soldier s${seat}${count ? "" : " none"}`;
        svgEl("rect", { x: x + 2, y: place.y - 28, width: width - 4, height: 26, rx: 4, class: cls }, g);
        svgEl("text", { x: x + width / 2, y: place.y - 9, class: "count", "text-anchor": "middle" }, g, count);
        const extra = (area.reinforcements[seat] || 0);
        if (extra) {
          svgEl("text", { x: x + width / 2, y: place.y + 12, class: "reinforcement", "text-anchor": "middle" }, g, `+${extra}`);
        }
        if (area.daimyo[seat]) {
          svgEl("circle", { cx: x + width / 2, cy: place.y + 32, r: 10, class: `daimyo s${seat}` }, g);
          svgEl("text", { x: x + width / 2, y: place.y + 36, class: "daimyo-mark", "text-anchor": "middle" }, g, "D");
        }
      });
    }
    board.replaceChildren(svg);

    panel.replaceChildren();
    fact(panel, "Phase", `${pretty(view.phase)} · ${pretty(view.step)}`);
    fact(panel, "To move", seatName(view.current));
    if (view.dice.length) fact(panel, "Dice", view.dice.join(" "));
    if (view.tactic_display.length) fact(panel, "Tactic cards", view.tactic_display.map(pretty).join(", "));
    fact(panel, "Reinforcement pool", view.reinforcement_pool);
    const seats = htmlEl("ul", "seats-list", panel);
    view.seats.forEach((s, seat) => {
      const li = htmlEl("li", `s${seat}-text`, seats);
      htmlEl("span", `swatch s${seat}`, li);
      const tokens = s.tokens.map((t) => `${t.castle}${t.size === "large" ? "L" : "s"}`).join(" ");
      const parts = [`${seatName(seat)}: stock ${s.stock}`, `sword ${s.sword}`];
      if (tokens) parts.push(`castles ${tokens}`);
      if (s.tactic_used) parts.push(`used ${pretty(s.tactic_used)}`);
      if (s.daimyo_revealed && s.daimyo_card) parts.push(`daimyo ${pretty(s.daimyo_card)}`);
      if (s.score) parts.push(`score ${s.score}`);
      li.appendChild(document.createTextNode(parts.join(" · ")));
    });
  }

  // ------------------------------------------------------------------ Root

  const SHORT = { sawmill: "Saw", workshop: "Wks", recruiter: "Rec", roost: "Rst", base: "Base", ruin: "Ruin" };

  function rootNumber(v) {
    return typeof v === "string" ? Number(v) : v;
  }

  function rootValue(value) {
    if ("number" in value) return String(rootNumber(value.number));
    if ("flag" in value) return value.flag ? "yes" : "no";
    if ("text" in value) return pretty(value.text);
    if ("names" in value) return (value.names.names || []).map(pretty).join(", ") || "–";
    if ("numbers" in value) return (value.numbers.numbers || []).map(rootNumber).join(" ");
    if ("lists" in value) return (value.lists.lists || []).map((l) => (l.names || []).map(pretty).join(", ")).join(" / ");
    return "";
  }

  function drawRoot(view) {
    const svg = svgRoot(1000, 700, "Root map");
    const layout = meta.board;
    const at = new Map(layout.clearings.map((c) => [c.id, c]));
    for (const [a, b] of layout.paths) {
      const p = at.get(a), q = at.get(b);
      svgEl("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "link path" }, svg);
    }
    for (const [a, b] of layout.river) {
      const p = at.get(a), q = at.get(b);
      svgEl("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "link river" }, svg);
    }
    // the Vagabond's pawn is on its board ("pawn": a clearing number, or a forest's name)
    const pawns = new Set(view.players.flatMap((p) => p.board.filter((v) => v.name === "pawn" && "number" in v).map((v) => rootNumber(v.number))));
    for (const clearing of view.clearings) {
      const place = at.get(clearing.id);
      if (!place) continue;
      const g = svgEl("g", { class: `clearing suit-${clearing.suit || "none"}`, "data-clearing": clearing.id }, svg);
      svgEl("circle", { cx: place.x, cy: place.y, r: 66, class: `clearing-disc${clearing.ruler ? ` ruled f-${clearing.ruler}` : ""}` }, g);
      svgEl("text", { x: place.x - 50, y: place.y - 44, class: "clearing-id" }, g, clearing.id);
      svgEl("text", { x: place.x + 50, y: place.y - 44, class: "suit-name", "text-anchor": "end" }, g, clearing.suit || "");
      clearing.buildings.forEach((b, i) => {
        const x = place.x - 54 + i * 38;
        svgEl("rect", { x, y: place.y - 34, width: 34, height: 22, rx: 3, class: `building f-${b.owner || "none"}` }, g);
        svgEl("text", { x: x + 17, y: place.y - 18, class: "piece-text", "text-anchor": "middle" }, g, SHORT[b.kind] || pretty(b.kind).slice(0, 4));
      });
      const tokens = clearing.tokens.map((t) => [t.owner || "none", pretty(t.kind).slice(0, 1).toUpperCase()]);
      if (pawns.has(clearing.id)) tokens.push(["vagabond", "V"]);
      tokens.forEach(([owner, mark], i) => {
        const x = place.x - 46 + (i % 5) * 23, y = place.y + 2 + Math.floor(i / 5) * 16;
        svgEl("circle", { cx: x, cy: y, r: 10, class: `token f-${owner}` }, g);
        svgEl("text", { x, y: y + 4, class: "piece-text small", "text-anchor": "middle" }, g, mark);
      });
      const below = tokens.length > 5 ? 14 : 0;
      clearing.warriors.forEach((w, i) => {
        const x = place.x - 48 + i * 34;
        svgEl("rect", { x, y: place.y + 18 + below, width: 30, height: 24, rx: 12, class: `warriors f-${w.faction}` }, g);
        svgEl("text", { x: x + 15, y: place.y + 35 + below, class: "piece-text", "text-anchor": "middle" }, g, w.count);
      });
    }
    board.replaceChildren(svg);
    colourSeatsByFaction(view.players);

    panel.replaceChildren();
    const over = view.winners.length >= view.games;
    fact(panel, "Game", `${view.game_number} of ${view.games} · turn ${view.turn}${over ? " · over" : ""}`);
    if (!over) fact(panel, "To move", seatName(view.current));
    fact(panel, "Deck", `${view.deck_count} cards · discard ${view.discard.length}`);
    if (view.available_dominance.length) fact(panel, "Dominance cards", view.available_dominance.map(pretty).join(", "));
    const players = htmlEl("ul", "seats-list", panel);
    for (const p of view.players) {
      const li = htmlEl("li", "", players);
      htmlEl("span", `swatch f-${p.faction}`, li);
      const parts = [`${seatName(p.seat)} (${pretty(p.faction)}): ${p.vp} VP`, `hand ${p.hand_count}`];
      if (p.dominance) parts.push(pretty(p.dominance).replace(/^(dominance )?/, "dominance "));
      if (p.crafted.length) parts.push(`crafted ${p.crafted.map(pretty).join(", ")}`);
      if (p.items.length) parts.push(`items ${p.items.join(", ")}`);
      li.appendChild(document.createTextNode(parts.join(" · ")));
      const values = p.board.map((v) => `${pretty(v.name)}: ${rootValue(v)}`).join("; ");
      if (values) htmlEl("div", "muted small", li, values);
    }
    // Each finished game's winner, as that game's (a two-player contest is two games, and
    // the contest goes to the higher total: its result is drawn on the last frame).
    view.winners.forEach((w, i) => {
      const vp = (view.results[i] && view.results[i].vp) || [];
      const others = vp.map((points, seat) => [seat, points]).filter(([seat]) => seat !== w.seat);
      const rest = others.map(([seat, points]) => `${seatName(seat)} ${points}`).join(", ");
      const label = view.games > 1 ? `Game ${i + 1} won by` : "Won by";
      fact(panel, label, `${seatName(w.seat)}${vp[w.seat] !== undefined ? `, ${vp[w.seat]} VP` : ""}${rest ? ` (${rest})` : ""}`);
    });
  }

  // Root's seats have no colour of their own: a seat is shown in the colour of the faction it
  // plays in the game drawn (the colour of its pieces on the board), and in a two-player
  // contest the factions swap for the second game, so the seats table follows the frame.
  function colourSeatsByFaction(players) {
    for (const p of players) {
      const row = document.querySelector(`tr.seat-${p.seat}`);
      if (!row) continue;
      const swatch = row.querySelector(".swatch");
      if (swatch) swatch.className = `swatch f-${p.faction}`;
      const name = row.querySelector(".faction");
      if (name) name.textContent = pretty(p.faction);
    }
  }

  // ------------------------------------------------------------------ Gnomeville

  const TILES = { TILE_MARKET: "Mkt", TILE_HOUSE: "Hse", TILE_WORKSHOP: "Wsh", TILE_TAVERN: "Tav", TILE_ARMORY: "Arm", TILE_ACADEMY: "Acd", TILE_BALLISTA: "Bal", TILE_MONUMENT: "Mon", TILE_GNOME: "Gno" };

  function drawTown(town) {
    const size = 64;
    const svg = svgRoot(5 * size + 8, 5 * size + 8, `town of ${seatName(town.seat)}`);
    const trolls = new Set(town.trolls);
    const gnomes = new Map();
    town.gnomes.forEach((g, i) => { if (g.space !== undefined && g.space !== null) gnomes.set(g.space, i); });
    town.spaces.forEach((space, i) => {
      const x = 4 + (i % 5) * size, y = 4 + Math.floor(i / 5) * size;
      const cls = `space${space.boulder ? " boulder" : ""}${space.tile ? ` tile ${space.tile.toLowerCase()}` : ""}`;
      const g = svgEl("g", { "data-space": i }, svg);
      svgEl("rect", { x, y, width: size - 4, height: size - 4, rx: 6, class: cls }, g);
      if (space.tile) svgEl("text", { x: x + 30, y: y + 24, class: "tile-text", "text-anchor": "middle" }, g, TILES[space.tile] || space.tile);
      if (space.boulder) svgEl("text", { x: x + 30, y: y + 24, class: "tile-text", "text-anchor": "middle" }, g, "rock");
      if (trolls.has(i)) {
        svgEl("circle", { cx: x + 16, cy: y + 44, r: 10, class: "troll" }, g);
        svgEl("text", { x: x + 16, y: y + 48, class: "piece-text small", "text-anchor": "middle" }, g, "T");
      }
      if (gnomes.has(i)) {
        const gnome = town.gnomes[gnomes.get(i)];
        svgEl("circle", { cx: x + 44, cy: y + 44, r: 10, class: `gnome s${town.seat}` }, g);
        svgEl("text", { x: x + 44, y: y + 48, class: "piece-text small", "text-anchor": "middle" }, g, gnome.sword ? "S" : gnome.hammer ? "H" : "g");
      }
    });
    return svg;
  }

  function drawGnomeville(view) {
    const towns = htmlEl("div", "towns");
    for (const town of view.towns) {
      const box = htmlEl("figure", "town", towns);
      box.appendChild(drawTown(town));
      const caption = `${seatName(town.seat)} · ${town.name} · ${town.vp} VP · ${town.mushrooms} mushrooms${town.passed ? " · passed" : ""}`;
      htmlEl("figcaption", "", box, caption);
    }
    board.replaceChildren(towns);
    panel.replaceChildren();
    fact(panel, "Round", `${view.round} · ${pretty(view.phase)}${view.stage ? ` · ${pretty(view.stage)}` : ""}`);
    if (view.round_card) fact(panel, "Troll card", view.round_card);
    if (view.events.length) fact(panel, "Events", view.events.join(", "));
    if (view.delivery_card) fact(panel, "Delivery", view.delivery_card);
    if (view.drawn) fact(panel, "Drawn tile", TILES[view.drawn] || view.drawn);
  }

  function drawGeneric(view) {
    const pre = htmlEl("pre", "raw");
    pre.textContent = JSON.stringify(view, null, 1);
    board.replaceChildren(pre);
    panel.replaceChildren();
  }

  const DRAW = { "rumble-nation": drawRumbleNation, root: drawRoot, gnomeville: drawGnomeville };

  // ------------------------------------------------------------------ frames

  // Events are numbered in spans of their own, in a column as wide as the largest number (a
  // list marker would sit in the list's padding and lose its first digits from 10 on), and
  // an event of several lines keeps them.
  function renderEvents(events) {
    const digits = Math.min(4, String(Math.max(events.length, 1)).length);
    eventsList.className = `events digits-${digits}`;
    eventsList.replaceChildren();
    events.forEach((text, i) => {
      const li = htmlEl("li", "event", eventsList);
      htmlEl("span", "n", li, `${i + 1}.`);
      htmlEl("span", "text", li, text);
    });
    if (!events.length) htmlEl("li", "muted", eventsList, "(no public event)");
  }

  // The match's result as the referee ranked it (forfeits included; a Root contest by its
  // total over both games): shown on the last frame of a finished match.
  function drawResult(view) {
    const ranked = meta.seats.filter((s) => s.rank).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    if (!ranked.length) return;
    const isRoot = meta.game === "root";
    const label = isRoot && view.games > 1 ? "Contest result" : "Result";
    const text = ranked.map((s) => {
      const score = isRoot ? `${s.score} VP${view.games > 1 ? " in all" : ""}` : `score ${s.score}`;
      return `${s.rank}. ${s.name} (${score}${s.failure ? `, ${s.failure}` : ""})`;
    });
    const row = htmlEl("div", "fact result", panel);
    htmlEl("span", "label", row, label);
    htmlEl("span", "value", row, text.join("\n"));
  }

  function render(frame, label, last) {
    (DRAW[meta.game] || drawGeneric)(frame.view);
    if (last && meta.status === "done") drawResult(frame.view);
    renderEvents(frame.events);
    stepText.textContent = label;
  }

  function chunkOf(n) {
    return n - (n % CHUNK);
  }

  function load(start) {
    if (!loading.has(start)) {
      const url = `/api/matches/${encodeURIComponent(matchId)}/frames?start=${start}&count=${CHUNK}`;
      loading.set(start, fetch(url)
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`frames: HTTP ${r.status}`))))
        .then((body) => {
          total = body.total;
          for (const f of body.frames) {
            frames.set(f.n, f);
            loadedTo = Math.max(loadedTo, f.n);
          }
        })
        .catch((e) => {
          loading.delete(start); // asked again, it is fetched again
          throw e;
        }));
    }
    return loading.get(start);
  }

  function draw(n, note) {
    const frame = frames.get(n);
    const who = frame.seat === null ? "setup" : seatName(frame.seat);
    render(frame, `Decision ${n} / ${total - 1} · ${who}${note || ""}`, n === total - 1);
    document.getElementById("scrub").value = String(n);
    root.dataset.shown = String(n);
  }

  // Every move takes a number; a move still waiting for its frames gives way to any later one.
  async function show(wanted) {
    const move = ++moves;
    const target = Math.max(0, Math.min(total - 1, wanted));
    index = target;
    if (!frames.has(target)) {
      stepText.textContent = `Loading decision ${target} …`;
      await load(chunkOf(target));
      if (move !== moves) return;
    }
    draw(target);
    const next = chunkOf(target) + CHUNK;
    if (next < total && target % CHUNK > CHUNK / 2) load(next);
  }

  // The last frame: at once if it is loaded, else the last frame loaded so far, following the
  // frames as they load (a long replay is made on the server a chunk at a time) until the end.
  async function end() {
    const move = ++moves;
    const last = total - 1;
    while (!frames.has(last)) {
      index = loadedTo;
      draw(loadedTo, ` · loading to ${last} …`);
      await load(chunkOf(loadedTo + 1));
      if (move !== moves) return;
    }
    index = last;
    draw(last);
  }

  function step(delta) {
    return show(index + delta);
  }

  function togglePlay() {
    const button = document.getElementById("play");
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
      button.textContent = "Play";
      return;
    }
    button.textContent = "Pause";
    timer = setInterval(() => {
      if (index >= total - 1) togglePlay();
      else step(1);
    }, 250);
  }

  // The controls work from the moment the page is shown: a move asked for before the first
  // frame is drawn is made right after it (End then follows the frames as they load).
  function whenReady(move) {
    const run = () => Promise.resolve(move()).catch((e) => { stepText.textContent = `The viewer could not load: ${e.message}`; });
    if (ready) run();
    else queued.push(run);
  }

  function listenToControls() {
    const on = (id, move) => document.getElementById(id).addEventListener("click", () => whenReady(move));
    on("first", () => show(0));
    on("back", () => step(-1));
    on("forward", () => step(1));
    on("last", end);
    on("play", togglePlay);
    document.getElementById("scrub").addEventListener("input", (e) => whenReady(() => show(Number(e.target.value))));
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
      const keys = { ArrowRight: () => step(1), ArrowLeft: () => step(-1), Home: () => show(0), End: end, " ": togglePlay };
      const move = keys[e.key];
      if (move) {
        e.preventDefault();
        whenReady(move);
      }
    });
  }

  async function startReplay() {
    total = meta.frames;
    // For scripts and tests: step through frames, waiting for each to be drawn.
    window.kassenViewer = { show, step, end, get index() { return index; }, get total() { return total; } };
    await show(0);
    ready = true;
    for (const run of queued.splice(0)) run(); // in order: a later move supersedes an earlier
  }

  function startLive() {
    let seen = 0;
    const source = new EventSource(`/api/matches/${encodeURIComponent(matchId)}/live`);
    source.addEventListener("frame", (e) => {
      const update = JSON.parse(e.data);
      seen += 1;
      render(update, `Live · update ${seen} (shown with the spectator delay)`, false);
      root.dataset.shown = String(seen);
    });
    source.addEventListener("over", (e) => {
      const over = JSON.parse(e.data);
      source.close();
      stepText.textContent = `Finished: ${pretty(over.reason.replace(/^RESULT_REASON_/, "").toLowerCase())}. Reload for the replay.`;
      root.dataset.over = "1";
    });
    source.onerror = () => {
      source.close();
      if (!root.dataset.over) stepText.textContent = "The live view ended. Reload the page to see the result.";
    };
  }

  if (root.dataset.mode === "replay") listenToControls();
  fetch(`/api/matches/${encodeURIComponent(matchId)}`)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`match: HTTP ${r.status}`))))
    .then((body) => {
      meta = body;
      if (root.dataset.mode === "live") startLive();
      else return startReplay();
      return undefined;
    })
    .catch((e) => { stepText.textContent = `The viewer could not load: ${e.message}`; });
})();
