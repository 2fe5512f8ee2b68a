// Kassen's board drawings, shared by the match viewer (viewer.js) and the page where a person
// plays a seat. One global, window.KassenBoards; no modules, no libraries. Everything is built
// with DOM calls and textContent: no HTML from data is ever parsed (the pages' CSP is
// script-src 'self').
//
// Data: `meta` is {game, variant, board, seats: [{seat, name}, ...]}: `board` is the layout
// of boards.py board_for (null for Gnomeville); other fields are ignored. `view` is one
// game's observation as JSON (MessageToDict of the inner RumbleNationObservation,
// RootObservation or GnomevilleObservation, with preserving_proto_field_name and
// always_print_fields_with_no_presence: int64 numbers come as strings, unset optional fields
// are absent). `option` is a kassen.v1.Option the same way ({key, label, rumble_nation |
// root | gnomeville}).
//
// KassenBoards.draw(meta, view, {board, panel, own})
//   Draws `view` into the element `board` (SVG; Gnomeville: one SVG per town) and its facts
//   into the element `panel`, replacing what they held. `own` (optional): the seat whose own
//   observation `view` is; the panel then ends with a section.own-view headed "Your seat"
//   holding that seat's private information (facts labelled "Your ..."): Rumble Nation its
//   daimyo card, the draft cards it saw (and the display while it drafts); Root its hand (ul.hand, li.card[data-card]),
//   items, crafted cards and faction board; Gnomeville its bag, pile, drawn tile, share,
//   gnomes and steps, with its town drawn first and larger (Rumble Nation and Root: its line
//   in the seats list has class "own"). Without `own` nothing private is drawn, whatever the view holds.
//   Every place drawn is a <g> with data-place: "area:<id>" (Rumble Nation), "clearing:<n>"
//   (Root), "space:<i>" (Gnomeville, i = row*5+column, 0..24: the own town's spaces only, so
//   only when `own` is given). Each also has data-label, a name for people.
// KassenBoards.placesOf(meta, view, option) -> ["area:kyo"] | ["clearing:5"] | ["space:3"] | []
//   The places an option names (an element with that data-place exists after draw).
// KassenBoards.markPlaces(boardElement, placeIds, onPick)
//   Marks the listed places pickable (class "pickable", tabindex 0, role button, aria-label)
//   and unmarks all others; a click, Enter or Space on a marked place calls onPick(placeId).
//   A new call replaces the previous marking and callback (one delegated handler per board
//   element, for click and keydown, added once). markPlaces(board, [], null) clears it. Redrawing the board drops
//   the marking: mark again after draw.
// KassenBoards.select(boardElement, placeId)
//   Class "selected" on that place only (null: on none).
// KassenBoards.optionGroup(game, option) -> a short title of the option's kind, e.g.
//   "Place soldiers", "Clearings", "Place the tile"; else the key's part before ':'.
// KassenBoards.cardName(id) -> "ambush_bird_1" -> "Ambush (bird)"; KassenBoards.pretty(text)
//   -> underscores made spaces (how the viewer writes names).
// KassenBoards.htmlEl(name, className, parent, text) -> a new element (text set as
//   textContent), appended to `parent` when given: the pages' one way to build HTML.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";

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

  function fact(parent, label, value) {
    const row = htmlEl("div", "fact", parent);
    htmlEl("span", "label", row, label);
    htmlEl("span", "value", row, value);
    return row;
  }

  function pretty(name) {
    return String(name || "").replace(/_/g, " ");
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  const SUITS = new Set(["bird", "fox", "rabbit", "mouse"]);

  // Card ids are names in snake case, with the suit added when a name is in several suits and
  // a copy number when a suit holds copies (games/root/cards.py): the name, then the suit.
  function cardName(id) {
    const words = String(id || "").split("_").filter(Boolean);
    if (words.length > 1 && /^\d+$/.test(words[words.length - 1])) words.pop();
    const suit = words.length > 1 && SUITS.has(words[words.length - 1]) ? words.pop() : "";
    const name = capital(words.join(" "));
    return suit ? `${name} (${suit})` : name;
  }

  function present(v) {
    return v !== undefined && v !== null;
  }

  // What one drawing needs: the page's elements, the names of the seats and the own seat.
  function context(meta, view, opts) {
    const seats = (meta && meta.seats) || [];
    const own = Number.isInteger(opts && opts.own) ? opts.own : null;
    return {
      meta,
      view,
      board: opts.board,
      panel: opts.panel,
      own,
      seatName(seat) {
        const found = seats.find((s) => s && s.seat === seat) || seats[seat];
        return found ? found.name : `seat ${seat + 1}`;
      },
    };
  }

  // The own seat's section of the panel: its private facts, each labelled "Your ...".
  function ownSection(ctx) {
    const section = htmlEl("section", "own-view", ctx.panel);
    section.dataset.own = String(ctx.own);
    htmlEl("h3", "", section, `Your seat: ${ctx.seatName(ctx.own)}`);
    return section;
  }

  function list(values, empty) {
    return values.length ? values.join(", ") : empty;
  }

  // ------------------------------------------------------------------ Rumble Nation

  function drawRumbleNation(ctx) {
    const { meta, view, board, panel, seatName } = ctx;
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
      const g = svgEl("g", {
        class: `area${area.resolved ? " resolved" : ""}`,
        "data-area": area.id,
        "data-place": `area:${area.id}`,
        "data-label": `${place.name} (castle ${area.castle})`,
      }, svg);
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
      const li = htmlEl("li", `s${seat}-text${seat === ctx.own ? " own" : ""}`, seats);
      htmlEl("span", `swatch s${seat}`, li);
      const tokens = s.tokens.map((t) => `${t.castle}${t.size === "large" ? "L" : "s"}`).join(" ");
      const parts = [`${seatName(seat)}: stock ${s.stock}`, `sword ${s.sword}`];
      if (tokens) parts.push(`castles ${tokens}`);
      if (s.tactic_used) parts.push(`used ${pretty(s.tactic_used)}`);
      if (s.daimyo_revealed && s.daimyo_card) parts.push(`daimyo ${pretty(s.daimyo_card)}`);
      if (s.score) parts.push(`score ${s.score}`);
      li.appendChild(document.createTextNode(parts.join(" · ")));
    });
    if (ctx.own !== null && view.seats[ctx.own]) ownRumbleNation(ctx, view.seats[ctx.own]);
  }

  // A seat's own view adds its daimyo card (advanced game) and the cards it saw when it
  // drafted; the draft display is public but is what the seat chooses from.
  function ownRumbleNation(ctx, mine) {
    const { view } = ctx;
    const section = ownSection(ctx);
    if (view.variant === "advanced") {
      const card = mine.daimyo_card
        ? `${cardName(mine.daimyo_card)}${mine.daimyo_revealed ? " (revealed)" : " (hidden from the others)"}`
        : "none yet";
      fact(section, "Your daimyo card", card);
    }
    if (view.daimyo_seen.length) fact(section, "Your draft: cards seen", view.daimyo_seen.map(cardName).join(", "));
    if (view.phase === "draft" && view.daimyo_display.length) {
      fact(section, "Daimyo display", view.daimyo_display.map(cardName).join(", "));
    }
    const where = mine.daimyo_in_stock ? "in stock" : mine.daimyo_area ? `on ${mine.daimyo_area}` : "";
    fact(section, "Your soldiers", `${mine.stock} in stock${where ? ` · daimyo ${where}` : ""}`);
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

  function drawRoot(ctx) {
    const { meta, view, board, panel, seatName } = ctx;
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
      const g = svgEl("g", {
        class: `clearing suit-${clearing.suit || "none"}`,
        "data-clearing": clearing.id,
        "data-place": `clearing:${clearing.id}`,
        "data-label": `Clearing ${clearing.id}${clearing.suit ? ` (${clearing.suit})` : ""}`,
      }, svg);
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

    panel.replaceChildren();
    const over = view.winners.length >= view.games;
    fact(panel, "Game", `${view.game_number} of ${view.games} · turn ${view.turn}${over ? " · over" : ""}`);
    if (!over) fact(panel, "To move", seatName(view.current));
    fact(panel, "Deck", `${view.deck_count} cards · discard ${view.discard.length}`);
    if (view.available_dominance.length) fact(panel, "Dominance cards", view.available_dominance.map(pretty).join(", "));
    const players = htmlEl("ul", "seats-list", panel);
    for (const p of view.players) {
      const li = htmlEl("li", p.seat === ctx.own ? "own" : "", players);
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
    const mine = ctx.own === null ? null : view.players.find((p) => p.seat === ctx.own);
    if (mine) ownRoot(ctx, mine);
  }

  // The own hand is the one thing a Root seat sees that others do not; its items, crafted
  // cards and faction board are public but are what the seat plays with, so they come along.
  function ownRoot(ctx, mine) {
    const section = ownSection(ctx);
    const hand = mine.hand || [];
    htmlEl("h4", "", section, `Your hand (${hand.length})`);
    const cards = htmlEl("ul", "hand", section);
    for (const card of hand) {
      const li = htmlEl("li", "card", cards, cardName(card));
      li.dataset.card = card;
    }
    if (!hand.length) htmlEl("li", "muted", cards, "no cards");
    fact(section, "Your items", list((mine.items || []).map(pretty), "none"));
    if ((mine.crafted || []).length) fact(section, "Your crafted cards", mine.crafted.map(cardName).join(", "));
    if ((mine.used || []).length) fact(section, "Your effects used", mine.used.map(pretty).join(", "));
    fact(section, "Your warriors", `${mine.warriors_in_supply} in supply`);
    const values = htmlEl("ul", "board-values", section);
    for (const v of mine.board || []) htmlEl("li", "", values, `${capital(pretty(v.name))}: ${rootValue(v)}`);
  }

  // ------------------------------------------------------------------ Gnomeville

  const TILES = { TILE_MARKET: "Mkt", TILE_HOUSE: "Hse", TILE_WORKSHOP: "Wsh", TILE_TAVERN: "Tav", TILE_ARMORY: "Arm", TILE_ACADEMY: "Acd", TILE_BALLISTA: "Bal", TILE_MONUMENT: "Mon", TILE_GNOME: "Gno" };
  // Tile names by Tile number: every per-kind count list (bag, supply, share) is indexed so.
  const TILE_NAMES = ["market", "house", "workshop", "tavern", "armory", "academy", "ballista", "monument", "gnome"];

  function tileName(tile) {
    return typeof tile === "number" ? TILE_NAMES[tile] || String(tile) : String(tile || "").replace(/^TILE_/, "").toLowerCase();
  }

  // "a1" .. "e5", as the options' keys name spaces: column letter, row number.
  function spaceName(i) {
    return `${"abcde"[i % 5]}${Math.floor(i / 5) + 1}`;
  }

  function counts(perTile) {
    const found = (perTile || []).map((n, tile) => [n, tile]).filter(([n]) => n > 0);
    return found.map(([n, tile]) => `${tileName(tile)} ${n}`).join(" · ");
  }

  function drawTown(town, seatName, own) {
    const size = 64;
    const svg = svgRoot(5 * size + 8, 5 * size + 8, `town of ${seatName(town.seat)}`);
    const trolls = new Set(town.trolls);
    const gnomes = new Map();
    town.gnomes.forEach((g, i) => { if (present(g.space)) gnomes.set(g.space, i); });
    town.spaces.forEach((space, i) => {
      const x = 4 + (i % 5) * size, y = 4 + Math.floor(i / 5) * size;
      const cls = `space${space.boulder ? " boulder" : ""}${space.tile ? ` tile ${space.tile.toLowerCase()}` : ""}`;
      const attrs = { "data-space": i };
      if (own) {
        attrs["data-place"] = `space:${i}`;
        const what = space.tile ? `: ${tileName(space.tile)}` : space.boulder ? ": boulder" : "";
        attrs["data-label"] = `Space ${spaceName(i)}${what}`;
      }
      const g = svgEl("g", attrs, svg);
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

  function drawGnomeville(ctx) {
    const { view, board, panel, seatName } = ctx;
    const mine = ctx.own === null ? null : view.towns.find((t) => t.seat === ctx.own) || null;
    const towns = htmlEl("div", "towns");
    const ordered = mine ? [mine, ...view.towns.filter((t) => t !== mine)] : view.towns;
    for (const town of ordered) {
      const box = htmlEl("figure", town === mine ? "town own" : "town", towns);
      box.appendChild(drawTown(town, seatName, town === mine));
      const caption = `${seatName(town.seat)} · ${town.name} · ${town.vp} VP · ${town.mushrooms} mushrooms${town.passed ? " · passed" : ""}`;
      htmlEl("figcaption", "", box, caption);
    }
    board.replaceChildren(towns);
    panel.replaceChildren();
    fact(panel, "Round", `${view.round} · ${pretty(view.phase)}${view.stage ? ` · ${pretty(view.stage)}` : ""}`);
    if (view.round_card) fact(panel, "Troll card", view.round_card);
    if (view.events.length) fact(panel, "Events", view.events.join(", "));
    if (view.delivery_card) fact(panel, "Delivery", view.delivery_card);
    if (mine) ownGnomeville(ctx, mine);
  }

  function gnomeText(gnome, i) {
    const parts = [present(gnome.space) ? `on ${spaceName(gnome.space)}` : "in camp"];
    if (gnome.sword) parts.push("sword");
    if (gnome.hammer) parts.push("hammer");
    if (gnome.graduated) parts.push("graduated");
    if (gnome.ability) parts.push(`ability ${pretty(gnome.ability)}${gnome.ability_used ? " (used)" : ""}`);
    return `${i + 1}: ${parts.join(", ")}`;
  }

  function stepText(step) {
    const fields = (step.fields || [])
      .filter((f) => f.name !== "seat")
      .map((f) => `${pretty(f.name)} ${gnomevilleValue(f.value || {})}`);
    return `${pretty(step.kind)}${fields.length ? ` (${fields.join(", ")})` : ""}`;
  }

  function gnomevilleValue(value) {
    if ("number" in value) return String(Number(value.number));
    if ("flag" in value) return value.flag ? "yes" : "no";
    if ("text" in value) return pretty(value.text);
    if ("list" in value) return `[${(value.list.items || []).map(gnomevilleValue).join(" ")}]`;
    return "none";
  }

  // Only the own seat sees its drawn tile, its share of the supply, the cards it put back in
  // its pile and its steps in progress; its bag, gnomes and stacks are public but its own.
  function ownGnomeville(ctx, town) {
    const { view } = ctx;
    const section = ownSection(ctx);
    fact(section, "Your town", `${town.name} · ${town.vp} VP`);
    fact(section, "Your mushrooms", town.mushrooms);
    if (present(view.drawn)) fact(section, "Your drawn tile", tileName(view.drawn));
    if (present(town.revealed)) fact(section, "Your revealed tile", tileName(town.revealed));
    fact(section, "Your bag", counts(town.bag) || "empty");
    const known = (town.pile_known || []).map((k) => `${pretty(k.ability)} (${k.position ? `${k.position + 1}. from the top` : "on top"})`);
    fact(section, "Your pile", `${town.pile} card${town.pile === 1 ? "" : "s"}${known.length ? `; known: ${known.join(", ")}` : ""}`);
    const share = counts(view.share);
    if (share) fact(section, "Your share of the supply", share);
    fact(section, "Your stumps and stew", `${town.stumps} gnome tile${town.stumps === 1 ? "" : "s"} on the stumps · stew ${town.stew ? "full" : "empty"}`);
    if ((town.stacks || []).length) {
      fact(section, "Your upgrade stacks", town.stacks.map((s) => (s.tiles || []).map(tileName).join(" > ")).join("; "));
    }
    const aside = counts(town.set_aside);
    if (aside) fact(section, "Your tiles set aside", aside);
    if ((town.discard || []).length) fact(section, "Your discarded abilities", town.discard.map(pretty).join(", "));
    const gnomes = htmlEl("ul", "gnomes", section);
    town.gnomes.forEach((g, i) => htmlEl("li", "", gnomes, `Gnome ${gnomeText(g, i)}`));
    if ((view.steps || []).length) fact(section, "Your steps", view.steps.map(stepText).join(" > "));
  }

  function drawGeneric(ctx) {
    const pre = htmlEl("pre", "raw");
    pre.textContent = JSON.stringify(ctx.view, null, 1);
    ctx.board.replaceChildren(pre);
    ctx.panel.replaceChildren();
  }

  const DRAW = { "rumble-nation": drawRumbleNation, root: drawRoot, gnomeville: drawGnomeville };

  function draw(meta, view, opts) {
    const ctx = context(meta, view, opts || {});
    (DRAW[meta.game] || drawGeneric)(ctx);
  }

  // ------------------------------------------------------------------ options and places

  // Root option verbs whose first argument is a clearing (games/root: clearing_option, the
  // Vagabond's move and slip; a slip to a forest names no clearing). Other verbs take seats,
  // counts or columns that look like clearing numbers.
  const ROOT_CLEARING_VERBS = new Set(["clearing", "move", "slip"]);

  function placesOf(meta, view, option) {
    if (!meta || !option) return [];
    if (meta.game === "rumble-nation" && option.rumble_nation) {
      const o = option.rumble_nation;
      if (o.action === "place") {
        const area = ((view && view.areas) || []).find((a) => a.castle === o.castle);
        return area ? [`area:${area.id}`] : [];
      }
      if (["area", "move_soldier", "move_daimyo"].includes(o.action) && o.area) return [`area:${o.area}`];
      return [];
    }
    if (meta.game === "root" && option.root) {
      const o = option.root;
      const first = (o.arguments || [])[0];
      if (!ROOT_CLEARING_VERBS.has(o.verb) || !first || !("number" in first)) return [];
      const n = rootNumber(first.number);
      const ids = meta.board ? meta.board.clearings.map((c) => c.id) : ((view && view.clearings) || []).map((c) => c.id);
      return ids.includes(n) ? [`clearing:${n}`] : [];
    }
    if (meta.game === "gnomeville" && option.gnomeville) {
      const space = option.gnomeville.space;
      return present(space) ? [`space:${Number(space)}`] : [];
    }
    return [];
  }

  const marks = new WeakMap(); // board element -> {ids: Set, onPick}

  function pick(event) {
    const state = marks.get(event.currentTarget);
    if (!state || typeof state.onPick !== "function") return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    const target = event.target instanceof Element ? event.target.closest("[data-place]") : null;
    if (!target || !event.currentTarget.contains(target) || !target.classList.contains("pickable")) return;
    const id = target.getAttribute("data-place");
    if (!state.ids.has(id)) return;
    event.preventDefault();
    state.onPick(id);
  }

  function markPlaces(boardElement, placeIds, onPick) {
    let state = marks.get(boardElement);
    if (!state) {
      state = { ids: new Set(), onPick: null };
      marks.set(boardElement, state);
      boardElement.addEventListener("click", pick);
      boardElement.addEventListener("keydown", pick);
    }
    state.ids = new Set(placeIds || []);
    state.onPick = onPick || null;
    for (const node of boardElement.querySelectorAll("[data-place]")) {
      const id = node.getAttribute("data-place");
      if (state.ids.has(id)) {
        node.classList.add("pickable");
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", node.getAttribute("data-label") || id);
      } else {
        node.classList.remove("pickable");
        node.removeAttribute("tabindex");
        node.removeAttribute("role");
        node.removeAttribute("aria-label");
      }
    }
  }

  function select(boardElement, placeId) {
    for (const node of boardElement.querySelectorAll("[data-place]")) {
      node.classList.toggle("selected", node.getAttribute("data-place") === placeId);
    }
  }

  const RUMBLE_GROUPS = {
    roll: "Roll", reroll: "Roll", place: "Place soldiers", tactic: "Tactic cards", daimyo: "Daimyo",
    draft: "Daimyo draft", area: "Areas", seat: "Opponents", stop: "Stop", escort: "Escort",
    move_soldier: "Move", move_daimyo: "Move",
  };
  const ROOT_GROUPS = {
    clearing: "Clearings", move: "Move", slip: "Slip", count: "How many", card: "Cards", seat: "Players",
    done: "Done", pass: "Pass", action: "Actions", use: "Card effects", first: "Effects first",
    ally: "Allies", damage: "Damage", remove: "Remove", craft: "Craft", activate: "Dominance",
    coalition: "Dominance", take: "Take", leader: "Leader", column: "Decree column",
    resolve: "Resolve the Decree", build: "Build", hold: "Hold", wait: "Wait", escort: "Escort",
    character: "Character", forest: "Forests", repair: "Repair", hideout: "Hideout",
    explore: "Explore", quest: "Quests", battle: "Battle", strike: "Strike", steal: "Steal",
    day_labor: "Day labor", aid: "Aid", stay: "Stay", refresh: "Refresh", exhaust: "Exhaust",
    reward: "Reward", ambush: "Ambush", decree: "Decree", discard: "Discard", foil: "Foil",
    give: "Give", hawks: "Hawks for hire", hospital: "Field hospitals", mobilize: "Mobilize",
    spend: "Spend", train: "Train",
  };
  const GNOMEVILLE_GROUPS = {
    place: "Place the tile", draw: "Draw", pass: "Pass", stew: "Stew", keep: "Keep",
    return: "Return the tile", redraw: "Redraw", buy: "Buy", done: "Done", move: "Move a gnome",
    echo: "Echo", ballista: "Ballista", sprint: "Sprint", stop: "Stop", activate: "Activate",
    skip: "Skip", deploy: "Deploy a gnome", target: "Targets", restand: "Restand",
    mushroom: "Mushroom", take: "Take", remove: "Remove", spawn: "Troll spawns", side: "Town side",
    line: "Upgrade line", upgrade: "Upgrade", none: "Do nothing",
  };

  function optionGroup(game, option) {
    const key = String((option && option.key) || "");
    const fallback = key.split(":")[0];
    const [groups, kind] =
      !option ? [null, ""]
      : game === "rumble-nation" && option.rumble_nation ? [RUMBLE_GROUPS, option.rumble_nation.action]
      : game === "root" && option.root ? [ROOT_GROUPS, option.root.verb]
      : game === "gnomeville" && option.gnomeville ? [GNOMEVILLE_GROUPS, option.gnomeville.action]
      : [null, ""];
    if (!groups || !kind) return fallback;
    return Object.prototype.hasOwnProperty.call(groups, kind) ? groups[kind] : capital(pretty(kind));
  }

  window.KassenBoards = Object.freeze({
    draw, placesOf, markPlaces, select, optionGroup, cardName, pretty, htmlEl,
  });
})();
