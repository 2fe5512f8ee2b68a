// The "new game" form: a pool, an opponent for every other seat (house bots and the bots that
// accept challenges and are online), the person's seat. The ladder decides whether the game
// may start (its limits); the page then goes to the seat.
"use strict";
(function () {
  const form = document.getElementById("new-game");
  if (!form) return;
  const poolSelect = document.getElementById("pool");
  const opponents = document.getElementById("opponents");
  const seatSelect = document.getElementById("seat");
  const status = document.getElementById("form-status");
  const wanted = new URLSearchParams(window.location.search);
  let pools = [];

  function option(parent, value, text) {
    const node = document.createElement("option");
    node.value = value;
    node.textContent = text;
    parent.appendChild(node);
    return node;
  }

  function poolKey(p) {
    return `${p.game}/${p.variant}/${p.players}`;
  }

  function chosenPool() {
    return pools.find((p) => poolKey(p) === poolSelect.value);
  }

  function showSeats() {
    const pool = chosenPool();
    opponents.querySelectorAll("label").forEach((n) => n.remove());
    seatSelect.replaceChildren();
    if (!pool) return;
    const house = pool.opponents.filter((o) => o.house);
    const preferred = wanted.get("opponent");
    for (let i = 0; i < pool.players - 1; i += 1) {
      const label = document.createElement("label");
      label.textContent = `Opponent ${i + 1} `;
      const select = document.createElement("select");
      select.className = "opponent";
      for (const o of pool.opponents) option(select, o.bot_id, o.house ? `${o.name} (house)` : `${o.name} (challenge)`);
      const first = i === 0 && pool.opponents.some((o) => o.bot_id === preferred) ? preferred : null;
      const fallback = house.length ? house[i % house.length].bot_id : pool.opponents[i % pool.opponents.length].bot_id;
      select.value = first || fallback;
      label.appendChild(select);
      opponents.appendChild(label);
    }
    option(seatSelect, "", "any (drawn at random)");
    for (let s = 0; s < pool.players; s += 1) option(seatSelect, String(s), `seat ${s + 1}`);
  }

  async function start(event) {
    event.preventDefault();
    const pool = chosenPool();
    if (!pool) return;
    const body = {
      game: pool.game,
      variant: pool.variant,
      players: pool.players,
      opponents: [...opponents.querySelectorAll("select.opponent")].map((s) => s.value),
      seat: seatSelect.value === "" ? null : Number(seatSelect.value),
    };
    form.dataset.state = "starting";
    status.textContent = "Asking the ladder for a table…";
    document.getElementById("start").disabled = true;
    try {
      const response = await fetch("/api/play", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
      window.location.assign(answer.url);
    } catch (e) {
      form.dataset.state = "refused";
      status.textContent = `The game did not start: ${e.message}`;
      document.getElementById("start").disabled = false;
    }
  }

  fetch("/api/play/pools")
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then((body) => {
      pools = body.pools;
      for (const p of pools) option(poolSelect, poolKey(p), `${p.title} · ${p.variant} · ${p.players} player${p.players === 1 ? "" : "s"}`);
      if (wanted.get("pool") && pools.some((p) => poolKey(p) === wanted.get("pool"))) poolSelect.value = wanted.get("pool");
      showSeats();
      poolSelect.addEventListener("change", showSeats);
      form.addEventListener("submit", start);
      form.dataset.state = "ready";
      status.textContent = pools.length ? "" : "No pool has bots to play against now.";
    })
    .catch((e) => { status.textContent = `The pools could not load: ${e.message}`; });
})();
