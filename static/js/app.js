// Scorekeeper: small enhancements on top of pages that work without JavaScript.
(function () {
  "use strict";

  // htmx swaps 422 (a rule broken), 409 (changed meanwhile), 400/403/404 (a notice in the
  // widget's place); no eval, no scripts from responses, no injected indicator style; a
  // request unanswered after 10 s counts as failed (kept to send again, below). Set here,
  // before htmx reads its settings once the page is parsed, rather than in every page.
  if (window.htmx) {
    Object.assign(htmx.config, {
      responseHandling: [
        { code: "204", swap: false },
        { code: "[23]..", swap: true },
        { code: "^(400|403|404|409|413|422|429)$", swap: true, error: false },
        { code: "[45]..", swap: false, error: true },
        { code: "...", swap: false }
      ],
      allowEval: false,
      allowScriptTags: false,
      includeIndicatorStyles: false,
      timeout: 10000
    });
  }

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

  // A widget's own script (its data-script), loaded once it is on the page: htmx runs no
  // script tag it swaps in.
  function scripts(root) {
    root.querySelectorAll("[data-script]").forEach(function (el) {
      var script = document.createElement("script");
      script.src = el.dataset.script;
      if (!document.querySelector('script[src="' + el.dataset.script + '"]')) {
        document.head.appendChild(script);
      }
    });
  }

  function enhance(root) {
    localTimes(root);
    copyButtons(root);
    scripts(root);
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
    // "Only … missed" is for the same player, in the words the server sent for them.
    var missed = entry.querySelector("form.missed-form");
    var labels = missed ? JSON.parse(missed.dataset.labels || "{}") : {};
    if (missed && labels[seat.value]) {
      missed.querySelector("input[name=seat]").value = seat.value;
      missed.querySelector(".missed-label").textContent = labels[seat.value];
    }
    var first = form.querySelector("button[name=tricks]:not([disabled])");
    if (first && document.activeElement === pick) first.focus({ preventScroll: true });
  });

  // A key of the round tapped with a finger: a short buzz where the phone has one (not
  // for a mouse, nor for a reader who asked for less motion).
  document.addEventListener("click", function (event) {
    if (navigator.vibrate && event.pointerType === "touch" && event.target.closest("#entry button") &&
        !matchMedia("(prefers-reduced-motion: reduce)").matches) navigator.vibrate(10);
  }, true);
})();

// The scorer's page on a phone held upright: the round fills the screen, and the tabs
// above it show the pad, the change log or the rest in its place (app.css) without
// moving the page. A tap that brings something into the entry panel from another tab (a
// round's number on the pad: its correction) shows the round again.
(function () {
  "use strict";
  var game = document.querySelector(".game.scoring");
  if (!game) return;
  var nav = game.querySelector(".game-tabs");
  var tabs = game.querySelectorAll(".game-tabs a");
  // The Log and More tabs' parts load once shown (data-lazy: from where): a tab opened,
  // or side by side on a wide screen. Without a connection a part says so, and loads when
  // shown again.
  function load() {
    if (document.readyState === "loading" || !window.htmx) return;
    game.querySelectorAll("[data-lazy]").forEach(function (part) {
      if (!part.offsetParent || part.classList.contains("htmx-request")) return;
      htmx.ajax("GET", part.dataset.lazy, { source: part, target: part }).then(function () {
        part.removeAttribute("data-lazy");
      }, function () {
        var note = part.querySelector(".alert") || part.appendChild(document.createElement("p"));
        note.className = "alert";
        note.setAttribute("role", "alert");
        note.textContent = nav.dataset.unreached;
      });
    });
  }
  document.addEventListener("DOMContentLoaded", load);
  window.addEventListener("resize", load);
  window.addEventListener("online", load);
  // A view is named by the part its tab links to: "entry", "pad-view", ….
  function show(view) {
    game.setAttribute("data-view", view);
    tabs.forEach(function (tab) {
      if (tab.hash === "#" + view) tab.setAttribute("aria-current", "page");
      else tab.removeAttribute("aria-current");
    });
    load();
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
    var controlled = Boolean(navigator.serviceWorker.controller);
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(worker.content).then(function () {
        // A scorer's page the worker didn't see load: kept now, for a reload offline.
        if (controlled || !document.getElementById("offline-plan")) return null;
        return navigator.serviceWorker.ready.then(function (registration) {
          if (registration.active) registration.active.postMessage({ keep: location.pathname });
        });
      }).catch(function () {
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
//
// A whole evening goes in this way: the page keeps what the server last showed (the entry
// panel, the pad, the standings: "shown" in localStorage), and static/js/offline.js draws
// every queued entry on top of it, round after round, from the rest of the game as the
// engine's data (the game's plan.json). A reload draws the same again (the service worker
// keeps the scorer's page for a reload without a connection); the last entry not sent yet
// can be taken back; once everything is sent the server's answer is what shows, and if it
// refused an entry, or worked out other totals, the page says so.
(function () {
  "use strict";

  var net = document.getElementById("net");
  if (!net || !window.htmx) return;
  var banner = document.getElementById("unsaved");
  var STORE = "scorekeeper:unsaved:" + location.pathname;
  var SHOWN = "scorekeeper:shown:" + location.pathname;
  var RETRY_MS = 4000;
  var TOKEN_MS = 20 * 60 * 1000;  // a fresh CSRF token before sending, at most this old
  var hooks = document.getElementById("offline-plan");  // a scorer's page of an open game
  // Kept per language and per version of offline.js, which reads it: a page that brings a
  // new one asks for the game's data (and its words) anew.
  var PLAN = "scorekeeper:plan:" + document.documentElement.lang + ":" + location.pathname +
    (hooks ? ":" + hooks.dataset.drawer : "");
  var plan = load(PLAN, null);
  var drawer = null;  // offline.js, once loaded
  var loading = null;
  var queue = load(STORE, []);
  var reachable = navigator.onLine !== false;
  var saveState = queue.length ? "unsaved" : null;
  var sending = false;
  var timer = null;
  var token = null;
  var tokenAt = 0;

  function load(name, empty) {
    try { return JSON.parse(localStorage.getItem(name) || "null") || empty; } catch (e) { return empty; }
  }
  function save(name, value) {
    try {
      if (value) localStorage.setItem(name, JSON.stringify(value));
      else localStorage.removeItem(name);
    } catch (e) { /* private mode, or full: kept in memory only */ }
  }
  function store() { save(STORE, queue.length ? queue : null); }

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
      banner.removeAttribute("role");
      banner.hidden = n === 0;
      banner.textContent = n ? net.dataset[on ? "saving" : "offline"] + " — " + save : "";
    }
    // Undo, take-backs and "Round n is scored. Undo" of the server need it: away while
    // offline (a queued entry has an Undo of its own).
    document.querySelectorAll("#entry .undo-line:not(.offline-undo), #entry form.reopen, #entry form.taken-back")
      .forEach(function (el) { el.hidden = !on || n > 0; });
  }

  function bodyOf(formData) {
    var params = new URLSearchParams();
    formData.forEach(function (value, name) {
      if (typeof value === "string") params.append(name, value);
    });
    return params.toString();
  }

  // What a queued entry is: the page draws bids, counts, "the rest made their bids",
  // "only … missed" (and lets a trump wait); anything else needs the server.
  function kindOf(elt, params) {
    var form = elt && elt.closest("form");
    if (params.has("bid") && params.has("seat")) return "bid";
    if (params.has("tricks") && params.has("seat")) return "tricks";
    if (form && form.classList.contains("rest-form")) return "rest";
    if (form && form.classList.contains("missed-form")) return "missed";
    if (form && form.classList.contains("trump-form")) return "trump";
    return "other";
  }

  // -- what the server last showed --------------------------------------------------------

  var PARTS = ["entry", "pad", "standings"];

  function versionShown() {
    var entry = document.getElementById("entry");
    return entry ? entry.dataset.version : null;
  }
  function versionOf(item) { return new URLSearchParams(item.body).get("v"); }

  // Kept after every answer of the server while nothing waits: a reload without a
  // connection may get an older page (the worker's copy from when it last loaded).
  var capturing = false;
  function capture(force) {
    capturing = false;
    var entry = document.getElementById("entry");
    if ((queue.length && !force) || !entry || !entry.hasAttribute("data-round")) return;
    var shown = { version: entry.dataset.version };
    PARTS.forEach(function (id) {
      var el = document.getElementById(id);
      if (el) shown[id] = el.outerHTML;
    });
    save(SHOWN, shown);
  }
  function captureSoon() {
    if (!capturing) { capturing = true; setTimeout(capture, 0); }
  }

  function enqueue(config, sent) {
    var params = new URLSearchParams(bodyOf(config.formData));
    var item = {
      key: config.headers["Idempotency-Key"],
      path: config.path,
      body: params.toString(),
      sent: sent,
      kind: kindOf(config.elt, params)
    };
    if (!queue.length) capture();  // what the server showed: the entries are drawn on it
    queue.push(item);
    store();
    if (item.kind === "other") {
      var button = config.elt && config.elt.closest("form") && config.elt.closest("form").querySelector("button[type=submit]");
      if (button) button.classList.add("unsaved");
    } else {
      drawing(item);
    }
    saveState = "unsaved";
    show();
    schedule();
  }

  // -- drawing (static/js/offline.js) -----------------------------------------------------

  var api = {
    net: net,
    banner: banner,
    hooks: hooks,
    queue: function () { return queue; },
    plan: function () { return plan; },
    shown: function () { return load(SHOWN, null); },
    versionOf: versionOf,
    versionIn: versionIn,
    load: load,
    save: save,
    store: store,
    show: show,
    // Undo of the last entry, while it has not gone out: it leaves the queue.
    takeBack: function () {
      var last = queue[queue.length - 1];
      if (!last || last.sent) return false;
      queue.pop();
      store();
      if (!queue.length) saveState = null;
      return true;
    }
  };

  // The drawing code and the rest of the game's data, once per page: when an entry waits,
  // or ahead of need after a tap that reached the server (without a service worker, a
  // phone that has just lost its connection could not fetch them any more).
  function loadOffline() {
    if (!hooks) return null;
    if (!loading) {
      var data = plan ? Promise.resolve() : fetch(hooks.dataset.plan, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (fetched) { if (fetched) { plan = fetched; save(PLAN, fetched); } })
        .catch(function () { /* offline: the open round is still drawn from its form */ });
      var script = new Promise(function (resolve) {
        var tag = document.createElement("script");
        tag.src = hooks.dataset.drawer;
        tag.onload = function () { drawer = window.scorekeeperOffline(api); resolve(); };
        tag.onerror = function () { resolve(); };
        document.head.appendChild(tag);
      });
      loading = Promise.all([data, script]).then(function () {
        if (!drawer || !plan) loading = null;  // tried again with the next entry
        return drawer;
      });
    }
    return loading;
  }

  function withDrawer(use) {
    if (drawer) { use(drawer); return; }
    var loaded = loadOffline();
    if (loaded) loaded.then(function (ready) { if (ready) use(ready); });
  }

  function drawing(item, older) {
    withDrawer(function (ready) {
      if (older) ready.catchUp();
      ready.redraw(item);
    });
  }

  // -- sending ----------------------------------------------------------------------------

  function pageToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return null; }
  }

  function versionIn(html) {
    var found = /id="entry"[^>]*data-version="(\d+)"/.exec(html);
    return found ? found[1] : null;
  }

  // The server's truth: the entry panel, and with it (out of band) the pad, the standings
  // and the change log (offline.js says so if its totals are not the ones it drew).
  function refreshPanel() {
    var refused = saveState === "refused";
    return htmx.ajax("GET", net.dataset.panel, { target: "#entry", swap: "outerHTML" }).then(function () {
      if (drawer) drawer.compare(!refused);
    });
  }

  function schedule() {
    if (timer === null && queue.length) timer = setInterval(flush, RETRY_MS);
  }

  // A CSRF token as fresh as the session allows: a queue may wait all evening, longer than
  // a token lives. Taken from the panel the server sends (nothing is changed by asking).
  function freshToken() {
    if (token && Date.now() - tokenAt < TOKEN_MS) return Promise.resolve(token);
    return fetch(net.dataset.panel, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var found = /name="csrf_token" value="([^"]+)"/.exec(html);
        token = found ? found[1] : pageToken();
        tokenAt = Date.now();
        return token;
      });
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
    // offline.js too, which says what the server didn't take.
    Promise.all([freshToken(), loadOffline()]).then(function (got) {
      var csrf = got[0];
      var entry = queue[0];
      var params = new URLSearchParams(entry.body);
      if (csrf) params.set("csrf_token", csrf);  // not part of what the key stands for
      entry.sent = true;
      store();
      var headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "HX-Target": "entry",
        "Idempotency-Key": entry.key
      };
      return fetch(entry.path, {
        method: "POST", headers: headers, body: params.toString(), credentials: "same-origin"
      }).then(function (response) {
        return response.text().then(function (html) { answered(response, html); });
      });
    }).catch(function () {
      sending = false;
      reachable = false;
      token = null;
      saveState = "unsaved";
      show();
      if (drawer) drawer.undoLine();  // what went out may have arrived: no Undo for it
    });
  }

  function answered(response, html) {
    sending = false;
    reachable = true;
    if (response.status >= 500) { show(); return; }  // try again later
    var done = queue.shift();
    // The next entries were made on top of this one: they go on from the version the
    // server is at now (unless they went out before, when their request must stay as it
    // was).
    var version = versionIn(html);
    queue.forEach(function (later) {
      if (!later.sent && version) {
        var p = new URLSearchParams(later.body);
        p.set("v", version);
        later.body = p.toString();
      }
    });
    // offline.js keeps a sealed bid the server took; once the server refused an entry, it
    // sets aside each later one that no longer fits what the server holds, and says so.
    if (drawer) drawer.answered(done, response.ok, html);
    store();
    if (queue.length) { flush(); return; }
    if (drawer && drawer.told()) saveState = "refused";
    else if (saveState !== "refused") saveState = "saved";
    show();
    if (drawer) drawer.undoLine();  // nothing is left to take back, even if the panel doesn't come
    refreshPanel();
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
    document.querySelectorAll(".offline-refused").forEach(function (el) { el.remove(); });
    config.headers["Idempotency-Key"] = newKey();
    if (queue.length || navigator.onLine === false) {
      // Behind unsaved entries (or offline): wait in line, in order. What the page can't
      // draw (a correction, a take-back) would be sent on top of a round it doesn't show.
      event.preventDefault();
      var kind = kindOf(config.elt, new URLSearchParams(bodyOf(config.formData)));
      if (kind === "other") withDrawer(function (ready) { ready.refuse(config.elt); });
      else enqueue(config, false);
    } else {
      saveState = "saving";
      show();
    }
  });

  function failed(event) {
    reachable = false;
    token = null;
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
      if (xhr.status < 300) {
        var form = config.elt && config.elt.closest("form");
        var body = bodyOf(config.formData);
        var sealed = Boolean(form && form.dataset.sealed);
        withDrawer(function (ready) { ready.remember(body, xhr.responseText, sealed); });
      }
    }
    show();
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!queue.length) captureSoon();
  });

  window.addEventListener("online", function () { reachable = true; show(); flush(); });
  // Ahead of need, once the page has settled: the first load stays as light as it was.
  window.addEventListener("load", function () { setTimeout(loadOffline, 1500); });
  window.addEventListener("offline", function () { token = null; show(); });

  function start() {
    var shown = load(SHOWN, null);
    var version = parseInt(versionShown(), 10);
    var made = queue.length ? parseInt(versionOf(queue[0]), 10) : NaN;
    // An older page than the one last shown: the worker's copy, opened offline. What the
    // server last showed goes on top of it.
    var older = Boolean(shown) && parseInt(shown.version, 10) > version;
    if (version === made) capture(true);  // the queue was made on this page: drawn on it
    else if (!queue.length && !older) capture();
    // A newer page than the queue was made on (changed elsewhere): the server says.
    if (older || version === made) drawing(null, older);
    if (queue.length) {
      schedule();
      flush();
    }
    show();
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
