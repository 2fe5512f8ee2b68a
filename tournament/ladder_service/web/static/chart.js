// The bot page's rating chart: an inline SVG drawn from /api/bots/{id}/history.
// One line per pool size with its interval as a band; time runs left to right.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const W = 640, H = 240, PAD = { l: 48, r: 12, t: 12, b: 28 };

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function draw(figure, series) {
    const points = series.flatMap((s) => s.points.filter((p) => p[1] !== null));
    const caption = figure.querySelector("figcaption");
    if (points.length === 0) {
      caption.textContent = "No rated matches yet.";
      return;
    }
    const times = points.map((p) => p[0]);
    const values = points.flatMap((p) => [p[1], p[2], p[3]]).filter((v) => v !== null);
    let t0 = Math.min(...times), t1 = Math.max(...times);
    if (t1 === t0) { t0 -= 1; t1 += 1; }
    let v0 = Math.min(...values), v1 = Math.max(...values);
    if (v1 - v0 < 1) { v0 -= 1; v1 += 1; }
    const x = (t) => PAD.l + ((t - t0) / (t1 - t0)) * (W - PAD.l - PAD.r);
    const y = (v) => H - PAD.b - ((v - v0) / (v1 - v0)) * (H - PAD.t - PAD.b);
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart-svg" });
    svg.setAttribute("aria-label", "rating over time");
    el("line", { x1: PAD.l, y1: H - PAD.b, x2: W - PAD.r, y2: H - PAD.b, class: "axis" }, svg);
    el("line", { x1: PAD.l, y1: PAD.t, x2: PAD.l, y2: H - PAD.b, class: "axis" }, svg);
    for (const v of [v0, (v0 + v1) / 2, v1]) {
      const label = el("text", { x: PAD.l - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, svg);
      label.textContent = v.toFixed(0);
    }
    const first = el("text", { x: PAD.l, y: H - 8, class: "tick" }, svg);
    first.textContent = new Date(t0 * 1000).toISOString().slice(0, 16).replace("T", " ");
    const last = el("text", { x: W - PAD.r, y: H - 8, class: "tick", "text-anchor": "end" }, svg);
    last.textContent = new Date(t1 * 1000).toISOString().slice(0, 16).replace("T", " ");
    series.forEach((s, i) => {
      const ps = s.points.filter((p) => p[1] !== null);
      if (ps.length === 0) return;
      const banded = ps.filter((p) => p[2] !== null && p[3] !== null);
      if (banded.length > 1) {
        const upper = banded.map((p) => `${x(p[0]).toFixed(1)},${y(p[3]).toFixed(1)}`);
        const lower = banded.map((p) => `${x(p[0]).toFixed(1)},${y(p[2]).toFixed(1)}`).reverse();
        el("polygon", { points: upper.concat(lower).join(" "), class: `band c${i}` }, svg);
      }
      const line = ps.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ");
      el("polyline", { points: line, class: `line c${i}` }, svg);
      ps.forEach((p) => el("circle", { cx: x(p[0]), cy: y(p[1]), r: 2.5, class: `dot c${i}` }, svg));
    });
    figure.insertBefore(svg, caption);
    caption.textContent = series
      .map((s, i) => (s.points.length ? `line ${i + 1}: ${s.players} player${s.players === 1 ? "" : "s"}${s.solo ? " (mean score)" : " (Elo)"}` : ""))
      .filter((text) => text)
      .join(" · ");
  }

  const figure = document.getElementById("chart");
  if (figure) {
    fetch(figure.dataset.src)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((body) => draw(figure, body.series))
      .catch((e) => { figure.querySelector("figcaption").textContent = `Chart unavailable: ${e.message}`; });
  }
})();
