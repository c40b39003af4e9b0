// Digital play: the table's pace, the reason for a card that can't be played, and polls.
(function () {
  "use strict";

  // A poll answered 304 ("nothing new") leaves the page as it is. Otherwise the seats as
  // this page shows them now are kept: the new answer's seats (who won, who leads, who is
  // to play) wait until its cards have landed.
  var seatsBefore = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 304) {
      event.detail.shouldSwap = false;
      return;
    }
    var line = document.querySelector("#seat .seats-line");
    seatsBefore = line ? line.cloneNode(true) : null;
  });

  // -- the pace of the bots' cards ------------------------------------------------------
  // The server answers at once with every card the bots played meanwhile. The page shows
  // them one at a time: each card of the middle carries a key (round.trick.position); the
  // keys shown are remembered across answers, and the new ones come in at the pace chosen.
  // A trick just won stays with its winning card marked before the next one is shown.
  // The seat says data-pacing="busy" while cards are still coming, "idle" after.
  var PACES = { fast: 150, normal: 700, slow: 1300 };
  var KEY = "scorekeeper-pace";
  var shown = null; // keys of the cards this page has shown; null before the first answer
  var run = 0;

  function pace() {
    var chosen = null;
    try { chosen = localStorage.getItem(KEY); } catch (e) { /* storage refused */ }
    return PACES[chosen] ? chosen : "normal";
  }

  function showControl() {
    var control = document.querySelector("[data-pace-control]");
    if (!control) return;
    control.hidden = Boolean(document.querySelector("#seat [data-final]"));
    control.querySelectorAll("button[value]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.value === pace()));
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-pace-control] button");
    if (!button) return;
    try { localStorage.setItem(KEY, button.value); } catch (e) { /* kept for now */ }
    showControl();
  });

  // The table is live: where the page was scrolled before a reload means nothing now.
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  var turnSeen = null;
  var finish = null; // lays every card still to come at once, while cards are coming
  var heldSeats = null; // the answer's seats, shown once its cards have landed
  var roundSeen = null; // the round whose hand this page showed last
  function settle(seat) {
    finish = null;
    seat.querySelectorAll(".pending").forEach(function (el) { el.classList.remove("pending"); });
    if (heldSeats) {
      var shownSeats = seat.querySelector(".seats-line");
      if (shownSeats) shownSeats.replaceWith(heldSeats);
      heldSeats = null;
    }
    seat.dataset.pacing = "idle";
    // A new round: its hand comes in card by card.
    if (roundSeen !== null && roundSeen !== seat.dataset.round) {
      var dealt = seat.querySelector(".hand");
      if (dealt) dealt.classList.add("dealing");
    }
    roundSeen = seat.dataset.round;
    // When it becomes this phone's turn, its keys and hand come into view (a long hand on
    // a small phone may reach below the first screen).
    var turn = seat.querySelector("[data-your-turn]");
    var key = turn && turn.dataset.yourTurn;
    if (turn && key !== turnSeen) {
      var hand = seat.querySelector("[data-hand]") || turn;
      if (hand.getBoundingClientRect().bottom > window.innerHeight) {
        hand.scrollIntoView({ block: "end" });
      }
    }
    turnSeen = key;
  }

  function deal(seat) {
    var mine = ++run;
    var plays = Array.prototype.slice.call(seat.querySelectorAll("[data-play]"));
    if (shown === null) {
      // The first answer shows the table as it is.
      shown = {};
      plays.forEach(function (el) { shown[el.dataset.play] = true; });
      settle(seat);
      return;
    }
    var fresh = plays.filter(function (el) { return !shown[el.dataset.play]; });
    if (!fresh.length) { settle(seat); return; }
    seat.dataset.pacing = "busy";
    fresh.forEach(function (el) { el.classList.add("pending"); });
    var seatsNow = seat.querySelector(".seats-line");
    if (seatsBefore && seatsNow) {
      heldSeats = seatsNow;
      seatsNow.replaceWith(seatsBefore);
    }
    seatsBefore = null;
    var done = seat.querySelector("[data-trick][data-complete]");
    var current = seat.querySelector("[data-trick]:not([data-complete])");
    var steps = [];
    var pause = PACES[pace()];
    var doneFresh = done ? fresh.filter(function (el) { return done.contains(el); }) : [];
    if (doneFresh.length) {
      // The trick just won: its missing cards one by one, then the winner, held a while.
      done.hidden = false;
      done.classList.add("undecided");
      if (current) current.hidden = true;
      doneFresh.forEach(function (el) { steps.push(function () { reveal(el); }); });
      steps.push(function () { done.classList.remove("undecided"); });
      if (current && current.querySelector("[data-play]")) {
        steps.push(null, null); // the winning card stays in view a little longer
        steps.push(function () { done.classList.add("gathered"); }); // to its winner
        steps.push(function () { done.hidden = true; current.hidden = false; });
      }
    }
    fresh.forEach(function (el) {
      if (!done || !done.contains(el)) steps.push(function () { reveal(el); });
    });
    function reveal(el) {
      el.classList.remove("pending");
      el.classList.add("laid");
      shown[el.dataset.play] = true;
    }
    var at = 0;
    function next() {
      if (mine !== run) return; // a newer answer took over
      if (at >= steps.length) { settle(seat); return; }
      if (steps[at]) steps[at]();
      at += 1;
      window.setTimeout(next, at < steps.length ? pause : 0);
    }
    finish = function () {
      run += 1; // the timers of this laying stop
      while (at < steps.length) { if (steps[at]) steps[at](); at += 1; }
      settle(seat);
    };
    next();
  }

  // A tap while cards are being laid is not lost: the laying finishes at once, then the
  // tap is made on the table as it now is (a card played, a bid, or why a card can't be).
  document.addEventListener("click", function (event) {
    if (!finish || !event.isTrusted || !event.target.closest) return;
    if (!event.target.closest("#seat")) return;
    var target = event.target.closest("button");
    event.preventDefault();
    event.stopPropagation();
    finish();
    if (target && document.contains(target) && target.closest("[data-after-laying], [data-hand]")) {
      target.click();
    }
  }, true);

  function onLoad(root) {
    var seat = root.id === "seat" ? root : root.querySelector && root.querySelector("#seat");
    if (!seat) return;
    showControl();
    deal(seat);
  }

  document.addEventListener("htmx:load", function (event) { onLoad(event.detail.elt); });
  if (document.readyState !== "loading") onLoad(document);
  else document.addEventListener("DOMContentLoaded", function () { onLoad(document); });

  // -- a hidden page asks for nothing (a phone locked at the table, another tab); shown
  // again, it catches up at once ----------------------------------------------------------
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.visibilityState === "hidden" && event.detail.elt.id === "seat") {
      event.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", function () {
    var seat = document.getElementById("seat");
    if (document.visibilityState === "visible" && seat) htmx.trigger(seat, "shown");
  });

  // -- this page's name for itself: a move sent twice from here is told apart from one
  // made meanwhile on another screen of the same seat.
  var screen = Math.random().toString(36).slice(2, 12) + Date.now().toString(36);
  document.addEventListener("htmx:configRequest", function (event) {
    if (/\/act$/.test(event.detail.path)) event.detail.parameters.screen = screen;
  });

  // -- a card that can't be played: its reason, here, without asking the server --------
  document.addEventListener("click", function (event) {
    var card = event.target.closest && event.target.closest("button.card[data-why]");
    if (!card) return;
    event.preventDefault();
    var why = document.querySelector("#seat [data-card-why]");
    if (!why) return;
    why.textContent = card.dataset.why;
    why.hidden = false;
  });
})();
