// Sortable tables: click a column heading (or press Enter on it) to sort by it; again to reverse.
// Cells sort by their data-sort value (numbers numerically, empty values last).
"use strict";
(function () {
  function sortBy(table, column, descending) {
    const body = table.tBodies[0];
    const numeric = table.tHead.rows[0].cells[column].dataset.type === "number";
    const rows = Array.from(body.rows).filter((r) => r.cells.length > column);
    const key = (row) => {
      const cell = row.cells[column];
      const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
      if (raw === "") return null;
      return numeric ? Number(raw) : raw.toLowerCase();
    };
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      const order = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -order : order;
    });
    rows.forEach((row) => body.appendChild(row));
    Array.from(table.tHead.rows[0].cells).forEach((th, i) => {
      if (i === column) th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    });
  }

  document.querySelectorAll("table.sortable").forEach((table) => {
    Array.from(table.tHead.rows[0].cells).forEach((th, column) => {
      th.tabIndex = 0;
      th.classList.add("sort");
      const activate = () => sortBy(table, column, th.getAttribute("aria-sort") === "ascending");
      th.addEventListener("click", activate);
      th.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          activate();
        }
      });
    });
  });
})();
