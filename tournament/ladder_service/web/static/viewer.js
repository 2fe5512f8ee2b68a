// The match viewer: draws the board of a finished match's replay, frame by frame, or of a
// running match as it is played (Server-Sent Events, with the match's spectator delay).
// Frames are public views only (the server sends observe(None)); this script never sees more.
// Everything is built with DOM calls and textContent: no HTML from data is ever parsed. The
// drawings themselves are boards.js's (window.KassenBoards), loaded before this script.
"use strict";
(function () {
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

  const htmlEl = window.KassenBoards.htmlEl;

  function seatName(seat) {
    const found = meta && meta.seats[seat];
    return found ? found.name : `seat ${seat + 1}`;
  }

  const pretty = window.KassenBoards.pretty;

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

  // The board and its facts are drawn by boards.js (KassenBoards), shared with the play page.
  function render(frame, label, last) {
    window.KassenBoards.draw(meta, frame.view, { board, panel });
    if (meta.game === "root") colourSeatsByFaction(frame.view.players);
    if (last && (meta.status === "done" || meta.status === "unrated")) drawResult(frame.view);
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
