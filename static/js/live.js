// A following phone: the game's new version comes over the live channel (server-sent
// events, #sync's data-events) and the page then asks for what changed ("sk-live" on
// #sync). A hidden page asks for nothing and catches up when shown. If the channel fails
// (no first message within 10 s, or nothing for 45 s, three times running, or no
// EventSource at all), the page asks every 5 s instead. #sync's data-live says which.
(function () {
  "use strict";

  var POLL_MS = 5000, FIRST_MS = 10000, QUIET_MS = 45000;
  var source = null, watchdog = null, poller = null, retry = null;
  var failures = 0, latest = 0, mode = "off";

  function sync() { return document.getElementById("sync"); }
  function shown() { var el = sync(); return el ? +el.getAttribute("data-version") : 0; }
  function hidden() { return document.visibilityState === "hidden"; }
  function ask() { var el = sync(); if (el) htmx.trigger(el, "sk-live"); }

  function state(now) {
    mode = now;
    var el = sync();
    if (el) el.setAttribute("data-live", now);
  }

  function stop() {
    clearTimeout(watchdog);
    clearTimeout(retry);
    clearInterval(poller);
    poller = null;
    if (source) source.close();
    source = null;
  }

  function failed() {
    stop();
    failures += 1;
    if (failures >= 3) poll();
    else retry = setTimeout(open, 1000 * failures);
  }

  function poll() {
    stop();
    state("poll");
    ask();
    poller = setInterval(function () { if (!hidden()) ask(); }, POLL_MS);
  }

  function open() {
    var el = sync();
    if (!el || hidden() || mode === "gone") return;
    if (failures >= 3 || !window.EventSource) { poll(); return; }
    stop();
    var heard = false;
    var here = new EventSource(el.getAttribute("data-events") + "?v=" + shown());
    source = here;
    state("open");
    watchdog = setTimeout(failed, FIRST_MS);
    here.onmessage = function (event) {
      heard = true;
      failures = 0;
      clearTimeout(watchdog);
      watchdog = setTimeout(failed, QUIET_MS);
      latest = Math.max(latest, +event.data);
      if (latest > shown()) ask();
    };
    here.onerror = function () {
      if (source !== here) return;
      if (heard) open(); // it ended after its messages (a proxy's timeout): again at once
      else failed();
    };
  }

  document.addEventListener("visibilitychange", function () {
    if (mode === "gone") return;
    if (hidden()) {
      stop();
      state("hidden");
    } else if (failures >= 3) {
      poll();
    } else {
      open();
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt.id !== "sync") return;
    if (event.detail.xhr && event.detail.xhr.status === 286) { // the game was deleted
      stop();
      state("gone");
    }
  });

  // Each answer brings a new #sync: mark it, and ask again if the game moved on meanwhile.
  document.addEventListener("htmx:afterSettle", function () {
    if (!sync()) return;
    state(mode);
    if (mode === "open" && latest > shown()) ask();
  });

  document.addEventListener("DOMContentLoaded", open);
})();
