// Scorekeeper: small enhancements on top of pages that work without JavaScript.
(function () {
  "use strict";

  // Times come from the server in UTC; show them in the phone's own time, written in the
  // page's language: a German page on an English phone says "26. Nov.", not "26 Nov".
  // The phone's locale when it speaks the page's language (its region's habits, e.g.
  // de-AT), or when the page names none.
  function localTimes(root) {
    var lang = document.documentElement.lang;
    var phone = navigator.language || "";
    var locales = !lang ? [] : phone.split("-")[0] === lang ? [phone] : [lang];
    root.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when.getTime())) {
        el.textContent = when.toLocaleString(locales, {
          day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
        });
      }
    });
  }

  // "Copy" buttons next to share links (only where the clipboard can be written).
  function copyButtons(root) {
    if (!navigator.clipboard || !window.isSecureContext) return;
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function enhance(root) {
    localTimes(root);
    copyButtons(root);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    navigator.clipboard.writeText(button.getAttribute("data-copy")).then(function () {
      button.textContent = button.dataset.copied || "Copied";
    });
  });
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.detail.elt); });

  // Trick counts go in in any order: a tap on a player's circle under "Took" points the
  // number keys at that player (the server takes a count for any seat; nothing is sent
  // until a number is tapped). The key of the player's bid is marked.
  document.addEventListener("click", function (event) {
    var pick = event.target.closest("button[data-taker]");
    var entry = pick && pick.closest("#entry");
    var form = entry && entry.querySelector("form.taps");
    var seat = form && form.querySelector("input[name=seat]");
    if (!seat || !form.querySelector("button[name=tricks]")) return;
    var row = pick.closest("tr");
    seat.value = pick.dataset.taker;
    entry.querySelectorAll("tr[data-seat]").forEach(function (r) {
      r.classList.toggle("now", r === row);
      var other = r.querySelector("button[data-taker]");
      if (other) other.setAttribute("aria-pressed", String(other === pick));
    });
    var taker = form.querySelector(".ask .taker");
    var name = row.querySelector(".who").textContent;
    if (taker) {
      // The reason beside the keys struck out names the player they are for.
      var before = taker.textContent;
      form.querySelectorAll(".why").forEach(function (why) {
        why.textContent = why.textContent.split(before).join(name);
      });
      taker.textContent = name;
    }
    form.querySelectorAll("button[name=tricks]").forEach(function (key) {
      key.classList.toggle("as-bid", key.value === row.dataset.bid);
    });
    var first = form.querySelector("button[name=tricks]:not([disabled])");
    if (first && document.activeElement === pick) first.focus({ preventScroll: true });
  });
})();

// The scorer's page on a phone held upright: the round fills the screen, and the tabs
// above it show the pad, the change log or the rest in its place (app.css) without
// moving the page. A tap that brings something into the entry panel from another tab (a
// round's number on the pad: its correction) shows the round again.
(function () {
  "use strict";
  var game = document.querySelector(".game.scoring");
  if (!game) return;
  var tabs = game.querySelectorAll(".game-tabs a");
  // A view is named by the part its tab links to: "entry", "pad-view", ….
  function show(view) {
    game.setAttribute("data-view", view);
    tabs.forEach(function (tab) {
      if (tab.hash === "#" + view) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    });
  }
  var asked = Array.prototype.some.call(tabs, function (tab) { return tab.hash === location.hash; });
  show(asked ? location.hash.slice(1) : "entry");
  document.addEventListener("click", function (event) {
    var tab = event.target.closest(".game-tabs a");
    if (!tab) return;
    event.preventDefault();
    show(tab.hash.slice(1));
    window.scrollTo(0, 0);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var from = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (event.detail.target && event.detail.target.id === "entry" && from && !from.closest("#entry")
        && from.closest(".view")) {
      show("entry");
    }
  });
})();

// The installed app: the service worker (static files from a cache), and a screen that
// stays on while a game is open on the table.
(function () {
  "use strict";

  var worker = document.querySelector('meta[name="service-worker"]');
  if (worker && "serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(worker.content).catch(function () {
        // No worker (e.g. plain HTTP on a home network): the pages work the same.
      });
    });
  }

  // Screen Wake Lock, only on pages marked data-keep-awake (the score pad, a digital
  // seat). The browser drops the lock when the page is hidden; take it again on return.
  var lock = null;
  function keepAwake() {
    if (lock || document.visibilityState !== "visible") return;
    if (!navigator.wakeLock || !document.querySelector("[data-keep-awake]")) return;
    lock = "pending";
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () {
      lock = null; // refused (battery saver, not allowed): the screen may dim as usual
    });
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);

  // What a tap changed is shown where the person is looking: a message (a rule broken,
  // a round corrected or deleted), or the entry panel when it turned into something else
  // (a correction, a delete to confirm, the round again). htmx keeps the page where it
  // was, and a short panel in place of a long one would leave it all above the screen.
  // Only for a tap: the live update of a following phone never moves the page.
  var modeBefore = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var panel = document.getElementById("entry");
    modeBefore = panel ? panel.getAttribute("data-mode") : null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    var panel = document.getElementById("entry");
    if (!panel || !config || !config.triggeringEvent) return;
    var shown = panel.querySelector(".alert, .note");
    if (!shown && panel.getAttribute("data-mode") !== modeBefore) shown = panel;
    if (!shown) return;
    var box = shown.getBoundingClientRect();
    var bottom = shown === panel ? box.top + 1 : box.bottom;
    if (box.top < 0 || bottom > window.innerHeight) shown.scrollIntoView({ block: "start" });
  });

  // Elsewhere a form refused comes back whole with its message at the top (the setup
  // form: two players, a name twice), while the button tapped is at the bottom: without
  // this the tap would seem to do nothing. The entry panel has its own rule above.
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    var swapped = event.target;
    if (!config || !config.triggeringEvent || !(swapped instanceof Element)) return;
    var alert = swapped.matches(".alert[role=alert]")
      ? swapped : swapped.querySelector(".alert[role=alert]");
    if (!alert || alert.closest("#entry")) return;
    var box = alert.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) alert.scrollIntoView({ block: "start" });
  });

  // A tap replaces the entry panel, and with it the focused button. Someone entering a
  // round with a keyboard (or a switch) carries on at the next number key, not at the top.
  document.addEventListener("htmx:afterSettle", function () {
    var panel = document.getElementById("entry");
    if (!panel || (document.activeElement && document.activeElement !== document.body)) return;
    var next = panel.querySelector("form.taps .key:not([disabled]), button.confirm");
    if (next) next.focus({ preventScroll: true });
  });
})();

// Entries that can't reach the server (Wi-Fi gone at the table) stay on screen marked
// "not saved yet", wait in a queue (kept in localStorage, so a reload keeps them) and go
// out again, in order and with the same Idempotency-Key, once the connection is back:
// the server answers a retry it has already seen with its first answer, so nothing is
// ever recorded twice. The header says whether the phone is online and whether its last
// entry was saved.
(function () {
  "use strict";

  var net = document.getElementById("net");
  if (!net || !window.htmx) return;
  var banner = document.getElementById("unsaved");
  var STORE = "scorekeeper:unsaved:" + location.pathname;
  var RETRY_MS = 4000;
  var queue = load();
  var reachable = navigator.onLine !== false;
  var saveState = queue.length ? "unsaved" : null;
  var sending = false;
  var timer = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]") || []; } catch (e) { return []; }
  }
  function store() {
    try {
      if (queue.length) localStorage.setItem(STORE, JSON.stringify(queue));
      else localStorage.removeItem(STORE);
    } catch (e) { /* private mode: the queue lives in memory only */ }
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // works on plain HTTP too (randomUUID does not)
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function online() { return navigator.onLine !== false && reachable; }

  function show() {
    var n = queue.length;
    net.hidden = false;
    var on = online();
    net.classList.toggle("offline", !on);
    var save = "";
    if (n) save = n === 1 ? net.dataset.unsavedOne : net.dataset.unsavedMany.replace("{n}", n);
    else if (saveState === "saving") save = net.dataset.saving;
    else if (saveState === "saved") save = net.dataset.saved;
    // One line in the top bar: "Saving…" and "Saved ✓" say "online" by themselves.
    net.querySelector(".net-state").textContent = on && save && !n ? "" : net.dataset[on ? "online" : "offline"];
    net.querySelector(".save-state").textContent = save;
    net.classList.toggle("unsaved", n > 0);
    if (banner && saveState !== "refused") {
      banner.hidden = n === 0;
      banner.textContent = n ? net.dataset[on ? "saving" : "offline"] + " — " + save : "";
    }
  }

  function bodyOf(formData) {
    var params = new URLSearchParams();
    formData.forEach(function (value, name) {
      if (typeof value === "string") params.append(name, value);
    });
    return params.toString();
  }

  // -- showing a queued entry ------------------------------------------------------------

  function unsavedMark(value) {
    var mark = document.createElement("span");
    mark.className = "val unsaved";
    mark.textContent = value;
    var label = document.createElement("span");
    label.className = "visually-hidden";
    label.textContent = " (" + net.dataset.unsavedLabel + ")";
    mark.appendChild(label);
    mark.title = net.dataset.unsavedLabel;
    return mark;
  }

  function cell(row, column) { return row.querySelectorAll("td.c")[column]; }
  function waiting(row, column) {
    if (column === 0 && row.hasAttribute("data-no-bid")) return false;
    var td = cell(row, column);
    return Boolean(td && td.querySelector(".wait"));
  }

  // The next bidder's keys, from the round's data the server sent with it (the engine's):
  // nothing above the top bid, and the one bid refused with so many bids missing and the
  // bids in adding up to so much (under the dealer rule).
  function limitBids(form, rows, next) {
    var top = parseInt(form.dataset.top, 10);
    var steps = form.dataset.bids ? JSON.parse(form.dataset.bids) : {};
    var missing = rows.filter(function (r) { return waiting(r, 0); }).length;
    var sum = rows.reduce(function (total, r) {
      var n = r.hasAttribute("data-no-bid") ? NaN : parseInt(cell(r, 0).textContent, 10);
      return isNaN(n) ? total : total + n;
    }, 0);
    var refused = (steps[missing] || [])[sum];
    var forbidden = refused === undefined || refused === null ? -1 : refused;
    var name = next.querySelector(".who").textContent;
    form.querySelectorAll("button[name=bid]").forEach(function (key) {
      var value = parseInt(key.value, 10);
      var id = "why-bid-" + value;
      var why = document.getElementById(id);
      key.disabled = value > top || value === forbidden;
      if (value === forbidden) {
        if (!why) {
          why = document.createElement("p");
          why.className = "why";
          why.id = id;
          form.appendChild(why);
        }
        why.textContent = form.dataset.whyTotal.replace("{name}", name).replace("{bid}", value);
      } else if (why && !key.disabled) {
        why.remove();
      }
      if (key.disabled) key.setAttribute("aria-describedby", id);
      else key.removeAttribute("aria-describedby");
    });
  }

  // Every bid is in while offline: the same keys take the trick counts from here on, 0 to
  // the highest count of the engine's steps.
  function toTricks(form, steps) {
    var keys = form.querySelector(".keys");
    var model = keys.querySelector("button");
    keys.replaceChildren();
    for (var value = 0; value <= steps.top[0]; value++) {
      var key = model.cloneNode(false);
      key.name = "tricks";
      key.value = key.textContent = String(value);
      key.disabled = false;
      key.removeAttribute("aria-describedby");
      keys.appendChild(key);
    }
    form.querySelectorAll(".why").forEach(function (why) { why.remove(); });
    form.action = form.dataset.tricks;
    form.setAttribute("hx-post", form.dataset.tricks);
    htmx.process(form);
  }

  // A bid or a trick count tapped while offline: write it into the table, then ask for
  // the next player's as the server would have (it checks every rule when it gets them).
  // A whole round goes in this way: the bids, then the trick counts. What the counts do
  // comes with the form as the engine's data (data-counts): the highest count the next
  // player may be given with so many tricks taken, and what fills itself in with so many
  // counts missing and so many tricks taken; the bid keys likewise (limitBids). The page
  // looks them up and knows no rule of its own.
  function showQueued(form, params) {
    var column = params.has("bid") ? 0 : params.has("tricks") ? 1 : -1;
    var entry = document.getElementById("entry");
    if (column < 0 || !form || !form.classList.contains("taps") || !entry) {
      var button = form && form.querySelector("button[type=submit]");
      if (button) button.classList.add("unsaved");
      return;
    }
    var value = params.get(column ? "tricks" : "bid");
    var rows = Array.prototype.slice.call(entry.querySelectorAll("tr[data-seat]"));
    var row = rows.filter(function (r) { return r.dataset.seat === params.get("seat"); })[0];
    if (!row) return;
    var steps = form.dataset.counts ? JSON.parse(form.dataset.counts) : null;
    // Sealed bids (V3, V4) stay sealed on screen.
    cell(row, column).replaceChildren(unsavedMark(column ? value : form.dataset.sealed || value));
    var open = rows.filter(function (r) { return waiting(r, column); });
    var asked = null;
    if (column === 0 && !open.length && form.dataset.tricks && steps) {
      toTricks(form, steps);
      column = 1;
      open = rows.filter(function (r) { return waiting(r, 1); });
      asked = form.dataset.askTricks;
    } else if (column === 1 && steps) {
      var taken = rows.reduce(function (sum, r) {
        var n = parseInt(cell(r, 1).textContent, 10);
        return isNaN(n) ? sum : sum + n;
      }, 0);
      var fill = steps.fill[open.length + " " + taken];
      if (fill !== undefined) {
        open.forEach(function (r) { cell(r, 1).replaceChildren(unsavedMark(String(fill))); });
        open = [];
      }
      form.querySelectorAll("button[name=tricks]").forEach(function (key) {
        key.disabled = parseInt(key.value, 10) > steps.top[taken];
      });
    }
    var ask = form.querySelector(".ask");
    var next = open[0];
    rows.forEach(function (r) { r.classList.remove("now"); });
    var balance = entry.querySelector(".balance");
    if (balance) balance.hidden = true;  // worked out again when the server has the entries
    if (!next) {
      form.querySelector(".keys").hidden = true;
      if (ask) ask.textContent = net.dataset.waiting;
      return;
    }
    next.classList.add("now");
    var oldName = row.querySelector(".who").textContent;
    var newName = next.querySelector(".who").textContent;
    form.querySelector("input[name=seat]").value = next.dataset.seat;
    if (column === 0) {
      form.querySelectorAll(".why").forEach(function (why) {  // e.g. "no full bid" (V7)
        why.textContent = why.textContent.split(oldName).join(newName);
      });
      limitBids(form, rows, next);
    }
    if (ask && asked) {
      ask.textContent = asked.replace("{name}", newName);
    } else if (ask) {
      var walker = document.createTreeWalker(ask, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        var text = walker.currentNode;
        if (text.nodeValue.indexOf(oldName) >= 0) {
          text.nodeValue = text.nodeValue.replace(oldName, newName);
          break;
        }
      }
    }
  }

  function enqueue(config, sent) {
    var params = new URLSearchParams(bodyOf(config.formData));
    queue.push({
      key: config.headers["Idempotency-Key"],
      path: config.path,
      body: params.toString(),
      sent: sent
    });
    store();
    showQueued(config.elt && config.elt.closest("form"), params);
    saveState = "unsaved";
    show();
    schedule();
  }

  // -- sending ----------------------------------------------------------------------------

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return null; }
  }

  function versionIn(html) {
    var found = /id="entry"[^>]*data-version="(\d+)"/.exec(html);
    return found ? found[1] : null;
  }

  function refreshPanel() {
    return htmx.ajax("GET", net.dataset.panel, { target: "#entry", swap: "outerHTML" });
  }

  function schedule() {
    if (timer === null && queue.length) timer = setInterval(flush, RETRY_MS);
  }

  function flush() {
    if (sending) return;
    if (!queue.length) {
      if (timer !== null) { clearInterval(timer); timer = null; }
      return;
    }
    if (navigator.onLine === false) return;
    sending = true;
    saveState = "saving";
    var entry = queue[0];
    var params = new URLSearchParams(entry.body);
    var token = csrfToken();
    if (token) params.set("csrf_token", token);  // not part of what the key stands for
    entry.sent = true;
    store();
    var headers = {
      "Content-Type": "application/x-www-form-urlencoded",
      "HX-Request": "true",
      "HX-Target": "entry",
      "Idempotency-Key": entry.key
    };
    fetch(entry.path, {
      method: "POST", headers: headers, body: params.toString(), credentials: "same-origin"
    }).then(function (response) {
      return response.text().then(function (html) {
        sending = false;
        reachable = true;
        if (response.status >= 500) { show(); return; }  // try again later
        queue.shift();
        if (response.ok) {
          // The next entries were made on top of this one: they go on from its version
          // (unless they went out before, when their request must stay as it was).
          var version = versionIn(html);
          queue.forEach(function (later) {
            if (!later.sent && version) {
              var p = new URLSearchParams(later.body);
              p.set("v", version);
              later.body = p.toString();
            }
          });
        } else {
          // Refused (changed by someone else, or a rule broken): the entries after it
          // were made on top of it, so they go too; the panel shows why and what is stored.
          queue = [];
          saveState = "refused";
          var alert = new DOMParser().parseFromString(html, "text/html").querySelector(".alert");
          if (banner) {
            banner.hidden = false;
            banner.textContent = alert ? alert.textContent : net.dataset.refused;
          }
        }
        store();
        if (queue.length) { flush(); return; }
        if (saveState !== "refused") saveState = "saved";
        show();
        refreshPanel();
      });
    }).catch(function () {
      sending = false;
      reachable = false;
      saveState = "unsaved";
      show();
    });
  }

  // -- htmx's requests ----------------------------------------------------------------------

  // htmx's headers the server never reads stay home: a tap's round trip is a few hundred
  // bytes lighter on a slow network. The CSRF token goes once, in the form when it has it.
  var UNREAD = ["HX-Current-URL", "HX-Trigger", "HX-Trigger-Name", "HX-Prompt"];

  document.addEventListener("htmx:configRequest", function (event) {
    var config = event.detail;
    UNREAD.forEach(function (name) { delete config.headers[name]; });
    if (config.formData && config.formData.has && config.formData.has("csrf_token")) {
      delete config.headers["X-CSRFToken"];
    }
    if (config.verb === "get") return;
    config.headers["Idempotency-Key"] = newKey();
    if (queue.length || navigator.onLine === false) {
      // Behind unsaved entries (or offline): wait in line, in order.
      event.preventDefault();
      enqueue(config, false);
    } else {
      saveState = "saving";
      show();
    }
  });

  function failed(event) {
    reachable = false;
    var config = event.detail.requestConfig;
    if (config && config.verb !== "get") enqueue(config, true);
    else show();
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return;  // no answer: sendError / timeout handle it
    reachable = true;
    var config = event.detail.requestConfig;
    if (config && config.verb !== "get" && !queue.length) {
      saveState = xhr.status < 300 ? "saved" : null;
    }
    show();
  });

  window.addEventListener("online", function () { reachable = true; show(); flush(); });
  window.addEventListener("offline", show);

  function start() {
    show();
    if (queue.length) {
      // After a reload: show what is still waiting on top of the page as stored.
      var entry = document.getElementById("entry");
      queue.forEach(function (item) {
        var params = new URLSearchParams(item.body);
        var form = entry && entry.querySelector("form.taps");
        if (form && params.get("v") === entry.dataset.version) showQueued(form, params);
      });
      schedule();
      flush();
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// A question that opens in place ("Delete this game?" in the games lists) is brought into
// view when it opens past the edge of the screen.
(function () {
  "use strict";
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.open) return;
    if (!details.hasAttribute("data-in-view")) return;
    var box = details.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) details.scrollIntoView({ block: "nearest" });
  }, true);
})();
