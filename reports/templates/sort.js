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
  function order(table, col, dir) {
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
  function sortBy(table, heads, th, col) {
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    table.sorted = { col: col, dir: dir };
    order(table, col, dir);
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
  // The find-me box: each word typed begins a word of the row's data-find (accents and
  // case aside), as the server's player search matches.
  var box = document.getElementById("find");
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function filter() {
    if (!box) { return; }
    var typed = fold(box.value).split(/[^a-z0-9]+/).filter(Boolean);
    var rows = document.querySelectorAll("#players tbody tr");
    var shown = 0;
    Array.prototype.forEach.call(rows, function (row) {
      var words = (row.getAttribute("data-find") || "").split(" ");
      var hit = typed.every(function (t) {
        return words.some(function (w) { return w.lastIndexOf(t, 0) === 0; });
      });
      row.hidden = !hit;
      shown += hit ? 1 : 0;
    });
    var count = document.getElementById("find-count");
    count.textContent = typed.length ? shown + " of " + rows.length + " players found" : "";
  }
  if (box) {
    var asked = new URLSearchParams(location.search).get("q");
    if (asked && !box.value) { box.value = asked; }
    box.addEventListener("input", filter);
    box.form.addEventListener("submit", function (e) {
      e.preventDefault();
      filter();
      var first = document.querySelector("#players tbody tr:not([hidden])");
      if (first) { first.scrollIntoView({ block: "center" }); }
    });
    filter();
  }
  // Printing: every folded part (the legend) opened for the paper, and folded again after.
  var unfolded = [];
  window.addEventListener("beforeprint", function () {
    unfolded = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"),
      function (d) { d.open = true; return true; });
  });
  window.addEventListener("afterprint", function () {
    unfolded.forEach(function (d) { d.open = false; });
    unfolded = [];
  });
  // The refresh button of a live page: the new numbers fetched and put in place, keeping
  // the scroll position, the sort and what the find-me box holds.
  var refresh = document.getElementById("refresh");
  if (refresh) {
    refresh.form.addEventListener("submit", function (e) {
      e.preventDefault();
      refresh.disabled = true;
      fetch(location.href, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var x = window.scrollX, y = window.scrollY;
          Array.prototype.forEach.call(document.querySelectorAll("[data-refresh]"), function (el) {
            var now = el.id && fresh.getElementById(el.id);
            if (now && !el.parentElement.closest("[data-refresh]")) {
              el.replaceWith(document.importNode(now, true));
            }
          });
          var table = document.getElementById("players");
          if (table && table.sorted) { order(table, table.sorted.col, table.sorted.dir); }
          filter();
          window.scrollTo(x, y);
          document.getElementById("refreshed").textContent = "Refreshed at " +
            new Date().toLocaleTimeString();
        })
        .catch(function () {
          document.getElementById("refreshed").textContent = "Could not refresh: try again.";
        })
        .then(function () { refresh.disabled = false; });
    });
  }
}());
