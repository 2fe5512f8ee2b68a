// A person's seat: the board as the seat sees it, the public log, the clock, and the legal
// options the referee offers, grouped by kind. Places the options name are marked on the
// board: clicking one keeps only its options (or plays it, when it is the only one). Only
// what the referee listed can be sent; the server checks the answer against the open
// decision again. Messages come as Server-Sent Events from the page's process, which holds
// the seat's Play stream while this page is open (a reload rejoins it).
"use strict";
(function () {
  const root = document.getElementById("play");
  if (!root || !window.KassenBoards) return;
  const boards = window.KassenBoards;
  const key = root.dataset.key;
  const board = document.getElementById("board");
  const panel = document.getElementById("panel");
  const choices = document.getElementById("choices");
  const status = document.getElementById("status");
  const clockText = document.getElementById("clock");
  const eventsList = document.getElementById("events");
  const MAX_EVENTS = 300;
  let meta = null;
  let decision = null; // the open decision: {request_id, kind, options, view, clock}
  let view = null; // the newest view of this seat
  let place = null; // the place picked on the board (options are filtered to it)
  let sending = false;
  let deadline = 0;
  let eventCount = 0;
  let source = null;

  const el = window.KassenBoards.htmlEl;

  function setState(state, text) {
    root.dataset.state = state;
    if (text !== undefined) status.textContent = text;
  }

  function addEvents(texts) {
    for (const text of texts) {
      eventCount += 1;
      const li = el("li", "event", eventsList);
      el("span", "n", li, `${eventCount}.`);
      el("span", "text", li, text);
    }
    while (eventsList.children.length > MAX_EVENTS) eventsList.removeChild(eventsList.firstChild);
    eventsList.className = `events digits-${Math.min(4, String(Math.max(eventCount, 1)).length)}`;
    eventsList.scrollTop = eventsList.scrollHeight;
  }

  function seconds(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
  }

  function tick() {
    if (!decision) {
      clockText.textContent = "";
      return;
    }
    const left = deadline - Date.now();
    const free = Math.max(0, left - decision.clock.bank_ms);
    clockText.textContent = free > 0 ? `${seconds(free)} + bank ${seconds(decision.clock.bank_ms)}` : `bank ${seconds(left)}`;
    clockText.classList.toggle("bad", left < 15000);
  }

  // ------------------------------------------------------------------ drawing

  function draw() {
    if (!meta || !view) return;
    boards.draw(meta, view, { board, panel, own: meta.seat });
    markPlaces();
  }

  function placesByOption() {
    if (!decision) return [];
    return decision.options.map((o) => boards.placesOf(meta, decision.view, o));
  }

  function markPlaces() {
    const named = new Set(placesByOption().flat());
    boards.markPlaces(board, [...named], pick);
    boards.select(board, place);
  }

  function pick(id) {
    if (!decision || sending) return;
    const matching = placesByOption().map((ids, i) => (ids.includes(id) ? i : -1)).filter((i) => i >= 0);
    if (matching.length === 1) {
      send(matching[0]);
      return;
    }
    place = id;
    draw();
    showChoices();
  }

  function showChoices() {
    choices.replaceChildren();
    if (!decision) return;
    const head = el("div", "choices-head", choices);
    el("strong", "", head, pretty(decision.kind));
    const places = placesByOption();
    let shown = decision.options.map((o, i) => i);
    if (place) {
      shown = shown.filter((i) => places[i].includes(place));
      el("span", "muted", head, ` · at ${place.replace(":", " ")}`);
      const all = el("button", "show-all", head, "Show every option");
      all.type = "button";
      all.addEventListener("click", () => { place = null; draw(); showChoices(); });
    }
    const groups = new Map();
    for (const i of shown) {
      const title = boards.optionGroup(meta.game, decision.options[i]);
      if (!groups.has(title)) groups.set(title, []);
      groups.get(title).push(i);
    }
    for (const [title, indices] of groups) {
      const box = el("fieldset", "option-group", choices);
      el("legend", "", box, `${title} (${indices.length})`);
      for (const i of indices) {
        const option = decision.options[i];
        const button = el("button", "option", box, option.label || option.key);
        button.type = "button";
        button.dataset.index = String(i);
        button.dataset.key = option.key;
        if (places[i].length) button.dataset.places = places[i].join(" ");
        button.disabled = sending;
        button.addEventListener("click", () => send(i));
      }
    }
  }

  function pretty(text) {
    return String(text || "").replace(/[._]/g, " ");
  }

  // ------------------------------------------------------------------ answering

  async function send(index) {
    if (!decision || sending) return;
    const requestId = decision.request_id;
    sending = true;
    choices.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    setState("sending", `Sent: ${decision.options[index].label || decision.options[index].key}`);
    try {
      const response = await fetch(`/api/play/${encodeURIComponent(key)}/answer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ request_id: requestId, option: index }),
      });
      if (!response.ok && response.status !== 409) {
        const body = await response.json().catch(() => ({}));
        throw new Error(body.error || `HTTP ${response.status}`);
      }
      if (decision && decision.request_id === requestId) {
        decision = null;
        place = null;
        choices.replaceChildren();
        markPlaces();
        setState("waiting", "Waiting for the others…");
      }
    } catch (e) {
      setState("deciding", `The answer was not sent (${e.message}); choose again.`);
      showChoices();
    } finally {
      sending = false;
      if (decision && decision.request_id !== requestId) showChoices();
    }
  }

  // ------------------------------------------------------------------ the stream

  function onDecision(message) {
    addEvents(message.events);
    decision = message;
    view = message.view;
    place = null;
    deadline = Date.now() + message.clock.decision_ms + message.clock.bank_ms;
    draw();
    showChoices();
    root.dataset.request = message.request_id;
    setState("deciding", `Your decision: ${pretty(message.kind)} — ${message.options.length} option${message.options.length === 1 ? "" : "s"}`);
    tick();
  }

  function onOver(over) {
    decision = null;
    choices.replaceChildren();
    addEvents(over.events || []);
    if (view) {
      boards.draw(meta, view, { board, panel, own: meta.seat });
      boards.markPlaces(board, [], null);
    }
    const result = el("div", "result-box", null);
    el("h2", "", result, "Result");
    const list = el("ol", "ranking", result);
    const seats = [...over.seats].sort((a, b) => (a.rank || 99) - (b.rank || 99) || a.seat - b.seat);
    for (const s of seats) {
      const you = s.seat === meta.seat ? " (you)" : "";
      const failure = s.reason && !/COMPLETED|UNSPECIFIED/.test(s.reason) ? `, ${pretty(s.reason.replace(/^RESULT_REASON_/, "").toLowerCase())}` : "";
      el("li", s.seat === meta.seat ? "you" : "", list, `${s.name}${you}: rank ${s.rank || "–"}, score ${s.score}${failure}`);
    }
    el("p", "muted", result, "Unrated: no rating changed.");
    const link = el("a", "", el("p", "", result), "The whole game, move by move");
    link.href = `/matches/${encodeURIComponent(over.match_id)}`;
    choices.replaceChildren(result);
    clockText.textContent = "";
    setState("over", `Game over: ${pretty(over.reason.replace(/^RESULT_REASON_/, "").toLowerCase())}`);
    drawFinalPosition(over.match_id);
  }

  // The board at the end: the others moved after this seat's last decision. Once the match
  // is recorded its replay is public, and its last frame (the public view) is drawn.
  async function drawFinalPosition(matchId) {
    const base = `/api/matches/${encodeURIComponent(matchId)}`;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const found = await fetch(base).then((r) => (r.ok ? r.json() : null)).catch(() => null);
      if (found && found.replay && found.frames) {
        const last = found.frames - 1;
        const body = await fetch(`${base}/frames?start=${last}&count=1`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
        if (body && body.frames.length) {
          boards.draw(meta, body.frames[0].view, { board, panel });
          root.dataset.final = "1";
        }
        return;
      }
      await new Promise((done) => setTimeout(done, 500));
    }
  }

  function connect() {
    source = new EventSource(`/api/play/${encodeURIComponent(key)}/events`);
    source.addEventListener("joined", () => {
      if (root.dataset.state === "connecting") setState("waiting", "Seated. Waiting for your turn…");
    });
    source.addEventListener("decision", (e) => onDecision(JSON.parse(e.data)));
    source.addEventListener("events", (e) => addEvents(JSON.parse(e.data).events));
    source.addEventListener("notice", (e) => {
      const notice = JSON.parse(e.data);
      if (notice.code === "displaced") {
        source.close();
        setState("displaced", "This seat was opened in another window; this one stopped.");
      } else {
        status.textContent = `The referee: ${notice.message}`;
      }
    });
    source.addEventListener("over", (e) => { source.close(); onOver(JSON.parse(e.data)); });
    source.addEventListener("gone", (e) => {
      source.close();
      setState("gone", `${JSON.parse(e.data).message}. The match page shows how it ended.`);
      const link = el("a", "", el("p", "", choices), "The match page");
      link.href = `/matches/${encodeURIComponent(meta.match_id)}`;
    });
    // The browser reconnects by itself after a network error: the page's process then
    // rejoins the seat, and the referee sends the open decision again.
    source.onerror = () => {
      if (root.dataset.state !== "over" && root.dataset.state !== "gone") status.textContent = "Connection lost; reconnecting…";
    };
  }

  fetch(`/api/play/${encodeURIComponent(key)}`)
    .then((r) => (r.ok ? r.json() : r.json().then((b) => Promise.reject(new Error(b.error || `HTTP ${r.status}`)))))
    .then((body) => {
      meta = body;
      connect();
      setInterval(tick, 500);
    })
    .catch((e) => setState("gone", `This game cannot be shown: ${e.message}`));
})();
