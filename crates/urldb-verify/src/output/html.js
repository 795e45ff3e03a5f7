// The table of `urldb verify --format html` (src/verify/html.rs): rows come
// from the JSON data block and are built with textContent only, so no value
// is ever read as HTML. Filter by verdict and text; sort by any column.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("urldb-data").textContent);
  var rank = { broken: 0, "not-checked": 1, blocked: 2, skipped: 3, excluded: 4, accepted: 5, ok: 6 };
  var words = { broken: "broken", "not-checked": "not checked", blocked: "blocked", skipped: "skipped",
    excluded: "skipped (urldb.toml)", accepted: "accepted", ok: "ok" };
  var tbody = document.querySelector("#urls tbody");
  var verdict = document.getElementById("verdict");
  var search = document.getElementById("search");
  var shown = document.getElementById("shown");
  var headers = Array.prototype.slice.call(document.querySelectorAll("#urls th[data-key]"));
  var sortKey = null; // null: broken first, then database order
  var sortDir = 1;

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function build(r, i) {
    r.index = i;
    var tr = document.createElement("tr");
    tr.className = "v-" + (rank.hasOwnProperty(r.verdict) ? r.verdict : "ok");
    var url = cell(tr, "", "url");
    // The renderer sends an href only for http(s); checked again here.
    if (r.href && /^https?:\/\//i.test(r.href)) {
      var a = document.createElement("a");
      a.href = r.href;
      a.rel = "noopener noreferrer";
      a.textContent = r.url;
      url.appendChild(a);
    } else {
      url.textContent = r.url;
    }
    r.location = r.file + ":" + r.line;
    cell(tr, r.location, "loc");
    cell(tr, r.status === null ? "\u2014" : String(r.status), "num");
    var v = cell(tr, words[r.verdict] || String(r.verdict), "verdict");
    if (r.trend) {
      var b = document.createElement("span");
      b.className = "badge t-" + r.trend;
      b.textContent = r.trend;
      v.appendChild(document.createTextNode(" "));
      v.appendChild(b);
    }
    var why = cell(tr, r.reason, "reason");
    if (r.kind) why.title = r.kind;
    cell(tr, r.ms + " ms", "num");
    if (data.history) {
      var marks = cell(tr, "", "recent");
      r.recent.forEach(function (o, k) {
        var m = document.createElement("span");
        m.className = "mark m-" + (rank.hasOwnProperty(o) ? o : "ok");
        var ago = r.recent.length - 1 - k;
        m.title = (words[o] || String(o)) + (ago === 0 ? " (latest run)" : " (" + ago + " runs before)");
        marks.appendChild(m);
      });
    }
    r.text = [r.url, r.location, r.status === null ? "" : String(r.status), words[r.verdict] || "",
      r.kind || "", r.reason, r.trend || ""].join("\n").toLowerCase();
    r.el = tr;
  }

  function value(r, key) {
    switch (key) {
      case "url": return r.url;
      case "location": return r.file;
      case "status": return r.status === null ? Infinity : r.status;
      case "verdict": return rank[r.verdict];
      case "reason": return r.reason;
      case "elapsed": return r.ms;
    }
    return 0;
  }

  function compare(a, b) {
    if (sortKey === null) {
      return (rank[a.verdict] - rank[b.verdict]) || (a.index - b.index);
    }
    var x = value(a, sortKey), y = value(b, sortKey);
    var c = x < y ? -1 : x > y ? 1 : 0;
    if (c === 0 && sortKey === "location") c = a.line - b.line;
    return c * sortDir || (a.index - b.index);
  }

  function wanted(r) {
    var v = verdict.value;
    if (v === "broken") {
      if (r.verdict !== "broken" && r.verdict !== "not-checked") return false;
    } else if (v === "ok") {
      if (r.verdict !== "ok" && r.verdict !== "accepted") return false;
    } else if (v === "new" || v === "persistent" || v === "flaky") {
      if (r.trend !== v) return false;
    } else if (v !== "all" && r.verdict !== v) {
      return false;
    }
    var q = search.value.trim().toLowerCase();
    return q === "" || r.text.indexOf(q) !== -1;
  }

  function show() {
    var list = data.rows.filter(wanted).sort(compare);
    var frag = document.createDocumentFragment();
    list.forEach(function (r) { frag.appendChild(r.el); });
    tbody.replaceChildren(frag);
    shown.textContent = list.length + " of " + data.rows.length + " URLs shown";
    headers.forEach(function (th) {
      if (!th.hasAttribute("aria-sort")) return;
      var key = th.getAttribute("data-key");
      th.setAttribute("aria-sort", key === sortKey ? (sortDir === 1 ? "ascending" : "descending") : "none");
    });
  }

  data.rows.forEach(build);
  headers.forEach(function (th) {
    var button = th.querySelector("button");
    if (!button) return;
    button.addEventListener("click", function () {
      var key = th.getAttribute("data-key");
      if (sortKey === key) {
        sortDir = -sortDir;
      } else {
        sortKey = key;
        sortDir = 1;
      }
      show();
    });
  });
  verdict.addEventListener("change", show);
  search.addEventListener("input", show);
  show();
})();
