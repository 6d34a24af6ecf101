(function () {
  "use strict";
  function key(cell) {
    var v = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent;
    var n = Number(v);
    return v === "" ? null : (isNaN(n) ? v.toLowerCase() : n);
  }
  function compare(a, b) {
    if (a === null) { return b === null ? 0 : 1; }
    if (b === null) { return -1; }
    if (typeof a === typeof b) { return a < b ? -1 : (a > b ? 1 : 0); }
    return typeof a === "number" ? -1 : 1;
  }
  function sortBy(table, heads, th, col) {
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.map.call(body.rows, function (row, i) {
      return { row: row, key: key(row.cells[col]), i: i };
    });
    rows.sort(function (a, b) {
      var c = compare(a.key, b.key);
      if (a.key !== null && b.key !== null) { c *= dir; }
      return c || a.i - b.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      var button = document.createElement("button");
      button.type = "button";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      th.classList.add("sortable");
      button.addEventListener("click", function () { sortBy(table, heads, th, col); });
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".if-script"), function (el) {
    el.hidden = false;
  });
}());
