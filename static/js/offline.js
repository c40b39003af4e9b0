// Scorekeeper's score pad without a connection: the entries waiting in app.js's queue,
// drawn on what the server last showed (the entry panel, the pad, the standings), round
// after round, from the rest of the game as the engine's data (the game's plan.json:
// dealers, cards, bid limits, the counts' steps, the score of every bid and count). It
// knows no rule of its own: it looks them up. Loaded by app.js when an entry waits, or
// ahead of need once the page has settled or a tap reached the server; the service
// worker keeps it for a page opened without a connection.
window.scorekeeperOffline = function (api) {
  "use strict";

  var net = api.net;
  var PARTS = ["entry", "pad", "standings"];
  var queue = api.queue();
  var plan = api.plan();
  var texts = (plan && plan.texts) || {};
  var drawn = null;  // the totals this phone worked out, to compare with the server's

  // The queue and the game's data as app.js has them now (the data may come later).
  function fresh() {
    queue = api.queue();
    plan = api.plan();
    texts = (plan && plan.texts) || {};
  }

  // Rounds drawn here stand apart on the pad until the server has them.
  var style = document.createElement("style");
  style.textContent = "#pad tr.unsaved td.total,#standings.unsaved .strip-total{font-style:italic;" +
    "text-decoration:underline dashed var(--danger)}.offline-refused{margin:.25rem 0}";
  document.head.appendChild(style);

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }

  function restore(shown) {
    PARTS.forEach(function (id) {
      var el = document.getElementById(id);
      if (!el || !shown[id]) return;
      var kept = new DOMParser().parseFromString(shown[id], "text/html").getElementById(id);
      if (!kept) return;
      kept.classList.remove("htmx-request");
      kept.querySelectorAll(".htmx-request").forEach(function (busy) { busy.classList.remove("htmx-request"); });
      el.replaceWith(kept);
      htmx.process(kept);
    });
  }

  // Whether the queue can be drawn from the start on what the server showed.
  function base() {
    var shown = api.shown();
    if (!queue.length || !shown) return null;
    return shown.version === api.versionOf(queue[0]) ? shown : null;
  }

  // -- showing a queued entry ------------------------------------------------------------

  function unsavedMark(text, value) {
    var mark = document.createElement("span");
    mark.className = "val unsaved";
    mark.textContent = text;
    mark.dataset.value = value;
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
  function rowsOf(entry) { return Array.prototype.slice.call(entry.querySelectorAll("tr[data-seat]")); }
  function nameOf(row) { return row.querySelector(".who").textContent; }

  // A seat's bid as far as this phone knows it: null without one (V6), NaN while unknown
  // (not in yet, or sealed by the server, V3 and V4, and not entered on this phone).
  function bidOf(row) {
    if (row.hasAttribute("data-no-bid")) return null;
    var mark = cell(row, 0).querySelector("[data-value]");
    if (mark) return parseInt(mark.dataset.value, 10);
    if (row.hasAttribute("data-bid")) return parseInt(row.dataset.bid, 10);
    var entry = document.getElementById("entry");
    return cell(row, 0).querySelector(".val") && entry ? sealedBid(entry.dataset.round, row.dataset.seat) : NaN;
  }
  function countOf(row) {
    var mark = cell(row, 1).querySelector("[data-value]");
    return parseInt(mark ? mark.dataset.value : cell(row, 1).textContent, 10);
  }

  // A sealed bid shown (V3, once all are in), when this phone knows it.
  function reveal(row) {
    var bid = bidOf(row);
    var mark = cell(row, 0).querySelector(".val");
    if (bid === null || isNaN(bid) || !mark) return;
    if (mark.dataset.value) mark.firstChild.nodeValue = String(bid);  // "not saved yet" stays
    else mark.textContent = String(bid);
    row.dataset.bid = String(bid);
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
    var name = nameOf(next);
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
        why.title = why.textContent;
      } else if (why && !key.disabled) {
        why.remove();
      }
      if (key.disabled) key.setAttribute("aria-describedby", id);
      else key.removeAttribute("aria-describedby");
    });
  }

  // The keys anew: ``name`` from 0 to ``top``.
  function keysFor(form, name, top) {
    var keys = form.querySelector(".keys");
    var model = keys.querySelector("button");
    if (!model) return;
    keys.replaceChildren();
    for (var value = 0; value <= top; value++) {
      var key = model.cloneNode(false);
      key.name = name;
      key.value = key.textContent = String(value);
      key.disabled = false;
      key.classList.remove("as-bid", "unsaved");
      key.removeAttribute("aria-describedby");
      keys.appendChild(key);
    }
    keys.hidden = false;
    form.querySelectorAll(".why, .hint").forEach(function (el) { el.remove(); });
  }

  function postTo(form, url) {
    form.action = url;
    form.setAttribute("hx-post", url);
    htmx.process(form);
  }

  // Every bid is in while offline: the same keys take the trick counts from here on, 0 to
  // the highest count of the engine's steps.
  function toTricks(form, steps) {
    keysFor(form, "tricks", steps.top[0]);
    postTo(form, form.dataset.tricks);
  }

  // "The rest made their bids", worked out with the counts' own steps: each missing count
  // as its player's bid, in bidding order, each one allowed, and whatever fills itself in
  // equal to the bid of its player (a saboteur dealer takes what is left). Null when it
  // can't be entered, as the server would refuse it.
  function restCounts(rows, steps) {
    var counts = rows.map(countOf);
    var open = function () { return counts.map(function (c, i) { return isNaN(c) ? i : -1; }).filter(function (i) { return i >= 0; }); };
    if (open().length < 2) return null;
    var taken = counts.reduce(function (sum, c) { return isNaN(c) ? sum : sum + c; }, 0);
    for (var i = 0; i < rows.length; i++) {
      if (!isNaN(counts[i])) continue;
      var bid = bidOf(rows[i]);
      if (bid === null) continue;
      if (isNaN(bid) || bid > steps.top[taken]) return null;
      counts[i] = bid;
      taken += bid;
      var left = open();
      var fill = steps.fill[left.length + " " + taken];
      if (fill !== undefined) {
        for (var j = 0; j < left.length; j++) {
          var theirs = bidOf(rows[left[j]]);
          if (theirs !== null && theirs !== fill) return null;
          counts[left[j]] = fill;
        }
      }
    }
    return open().length ? null : counts;
  }

  // A form of one wide button under the keys, posting to ``url`` with the keys' form's
  // hidden fields (and ``more`` of them), as the server draws "the rest made their bids".
  function wideForm(form, className, more, url) {
    var made = document.createElement("form");
    made.method = "post";
    made.className = className;
    form.querySelectorAll("input[name=csrf_token], input[name=v], input[name=idempotency_key]" + more)
      .forEach(function (input) { made.appendChild(input.cloneNode(false)); });
    var button = document.createElement("button");
    button.type = "submit";
    button.className = "big wide rest";
    made.appendChild(button);
    postTo(made, url);
    return made;
  }

  // A button's words after its mark, in a span a short line shortens with "…" (app.css),
  // the whole of them its title.
  function labelled(button, mark, words) {
    var text = document.createElement("span");
    text.textContent = words;
    button.textContent = mark + " ";
    button.appendChild(text);
    button.title = words;
  }

  function restButton(entry, form, rows, steps) {
    var rest = entry.querySelector("form.rest-form");
    var counts = plan && plan.rest && steps ? restCounts(rows, steps) : null;
    if (!counts) {
      if (rest) rest.hidden = true;
      return;
    }
    if (!rest) {
      rest = wideForm(form, "rest-form", "", plan.urls.rest);
      form.after(rest);
    }
    var started = rows.some(function (r) { return !isNaN(countOf(r)); });
    labelled(rest.querySelector("button"), "✓", started ? texts.rest : texts.everyone);
    rest.hidden = false;
  }

  // "Only … missed" for the player in row ``own``, worked out with the counts' own steps:
  // every other missing count as its player's bid, in bidding order, each one allowed,
  // and theirs the last count, which fills itself in; it must not be their bid. Null
  // when it can't be entered, as the server would refuse it (a seat without a bid, V6).
  function missedCounts(rows, steps, seat) {
    var own = rows.map(function (r) { return r.dataset.seat; }).indexOf(String(seat));
    var counts = rows.map(countOf);
    if (own < 0 || !isNaN(counts[own])) return null;
    var taken = counts.reduce(function (sum, c) { return isNaN(c) ? sum : sum + c; }, 0);
    for (var i = 0; i < rows.length; i++) {
      if (i === own || !isNaN(counts[i])) continue;
      var bid = bidOf(rows[i]);
      if (bid === null || isNaN(bid) || !(bid <= steps.top[taken])) return null;
      counts[i] = bid;
      taken += bid;
    }
    var mine = bidOf(rows[own]);
    var fill = steps.fill["1 " + taken];
    if (mine === null || isNaN(mine) || fill === undefined || fill === mine) return null;
    counts[own] = fill;
    return counts;
  }

  // Offered as the server offers it: two or more counts missing, their bids not adding
  // up (someone missed), and one of them at least can be the only one; its words for each
  // player from the game's data, the one the keys point at shown.
  function missedButton(entry, form, rows, steps) {
    var missed = entry.querySelector("form.missed-form");
    var open = rows.filter(function (r) { return isNaN(countOf(r)); });
    var labels = {};
    var any = false;
    if (plan && plan.rest && plan.urls.missed && texts.missed && steps && open.length >= 2
        && !restCounts(rows, steps)) {
      open.forEach(function (r) {
        var counts = missedCounts(rows, steps, r.dataset.seat);
        var words = counts ? texts.missed[counts[rows.indexOf(r)]] : texts.missed_none;
        labels[r.dataset.seat] = words.replace("{name}", nameOf(r));
        any = any || Boolean(counts);
      });
    }
    if (!any) {
      if (missed) missed.hidden = true;
      return;
    }
    if (!missed) {
      missed = wideForm(form, "missed-form", ", input[name=seat]", plan.urls.missed);
      var label = document.createElement("span");
      label.className = "missed-label";
      missed.querySelector("button").append("✓ ", label);
      (entry.querySelector("form.rest-form") || form).after(missed);
    }
    var seat = form.querySelector("input[name=seat]").value;
    missed.dataset.labels = JSON.stringify(labels);
    missed.querySelector("input[name=seat]").value = seat;
    missed.querySelector(".missed-label").textContent = labels[seat] || "";
    missed.hidden = false;
  }

  function formatted(total) { return (total < 0 ? "\u2212" : "") + Math.abs(total); }

  // Whether the dealer rule holds in round ``now`` with these totals before it, as the
  // engine put it (V1; V2: the dealer strictly ahead).
  function ruleHolds(now, totals) {
    return now.holds === "always" || (now.holds === "dealer_leads" && totals.every(function (t, s) {
      return s === now.dealer || totals[now.dealer] > t;
    }));
  }

  function roundOf(number) {
    return plan ? plan.rounds.filter(function (r) { return r.n === number; })[0] : null;
  }

  // The standings line over the round, from the same totals as the pad's row, marked as
  // not saved yet until the server's own comes: best first, equal totals sharing a place
  // (R17: before the end nobody has won), the points behind the leader, who deals next.
  // Before the first round is scored there is no line to draw on: the server's comes.
  function standingsFrom(totals, rows, number, next) {
    var standings = document.getElementById("standings");
    var list = standings && standings.querySelector(".strip-list");
    if (!list || !texts.after) return;
    var names = {};
    rows.forEach(function (r) { names[r.dataset.seat] = nameOf(r); });
    var items = {};
    list.querySelectorAll("li").forEach(function (li) {
      items[li.querySelector(".strip-name").textContent] = li;
    });
    var seats = totals.map(function (_, seat) { return seat; });
    seats.sort(function (a, b) { return totals[b] - totals[a] || a - b; });
    var top = totals[seats[0]];
    seats.forEach(function (seat) {
      var li = items[names[seat]];
      if (!li) return;
      var place = 1 + totals.filter(function (t) { return t > totals[seat]; }).length;
      var behind = top - totals[seat];
      li.value = place;
      li.classList.toggle("top", !behind);
      li.querySelector(".strip-place").textContent = String(place);
      li.querySelector(".strip-total").textContent = formatted(totals[seat]);
      li.querySelector(".strip-gap").innerHTML = behind ? '<span aria-hidden="true">\u2212' + behind +
        '</span><span class="visually-hidden">' + escapeHtml(texts.behind.replace("{n}", behind)) + "</span>" : "";
      list.appendChild(li);
    });
    var head = standings.querySelector(".strip-head > span");
    if (head) head.textContent = texts.after.replace("{n}", number);
    var deal = standings.querySelector(".strip-deal");
    if (deal) {
      deal.hidden = !next;
      if (next) deal.textContent = texts.deals_round.replace("{name}", names[next.dealer]).replace("{n}", next.n);
    }
    standings.classList.add("unsaved");
  }

  // The round is complete while offline: its scores from the engine's table, into the pad
  // (marked not saved yet), and the panel asks for the next round's bids.
  function nextRound(entry, form, rows) {
    var number = parseInt(entry.dataset.round, 10);
    var now = roundOf(number);
    if (!now || !entry.dataset.totals) return false;
    var totals = JSON.parse(entry.dataset.totals);
    var bids = {};
    for (var i = 0; i < rows.length; i++) {
      var seat = parseInt(rows[i].dataset.seat, 10);
      var bid = bidOf(rows[i]);
      var took = countOf(rows[i]);
      var score = bid === null ? plan.no_bid : (plan.scores[bid] || [])[took];
      if (score === undefined || score === null || isNaN(took)) return false;  // a sealed bid not entered here
      totals[seat] += score;
      bids[seat] = bid === null ? "–" : String(bid);
    }
    var padRow = document.getElementById("round-" + number);
    if (padRow) {
      padRow.querySelectorAll("td.total").forEach(function (td, seat) {
        Array.prototype.slice.call(td.childNodes).forEach(function (node) {
          if (!(node.classList && node.classList.contains("dealer-mark"))) node.remove();
        });
        td.appendChild(document.createTextNode(formatted(totals[seat])));
      });
      padRow.querySelectorAll("td.bid").forEach(function (td, seat) { td.textContent = bids[seat]; });
      padRow.classList.remove("current", "future");
      padRow.classList.add("done", "unsaved");
      padRow.removeAttribute("aria-current");
    }
    drawn = totals;
    var next = roundOf(number + 1);
    standingsFrom(totals, rows, number, next);
    entry.dataset.round = String(number + 1);
    entry.dataset.totals = JSON.stringify(totals);
    if (!next) return false;  // the last round: the final standings come from the server
    var nextRow = document.getElementById("round-" + next.n);
    if (nextRow) {
      nextRow.classList.remove("future");
      nextRow.classList.add("current");
      nextRow.setAttribute("aria-current", "step");
    }

    var names = {};
    rows.forEach(function (r) { names[r.dataset.seat] = nameOf(r); });
    var title = entry.querySelector("#entry-title");
    if (title) title.innerHTML = texts.title.replace("{n}", next.n);
    var each = entry.querySelector(".cards-each");
    if (each) each.innerHTML = next.cards_each;
    var roles = entry.querySelector(".roles");
    if (roles) {
      roles.innerHTML = texts.roles.replace("{dealer}", escapeHtml(names[next.dealer]))
        .replace("{leader}", escapeHtml(names[next.leader]));
    }
    entry.querySelectorAll(".reminder, .alert, p.note, form.note, .undo-line, .last-round, .confirm-form, .rest-form, .missed-form")
      .forEach(function (el) { el.remove(); });
    var trump = entry.querySelector(".trump-line");
    if (trump) trump.remove();  // recorded, if at all, once the server has the round

    var caption = entry.querySelector("table.seats caption");
    if (caption && texts.caption) caption.textContent = texts.caption.replace("{n}", next.n);
    var body = entry.querySelector("table.seats tbody");
    next.order.forEach(function (seat) {
      var row = rows.filter(function (r) { return r.dataset.seat === String(seat); })[0];
      row.className = "";
      row.removeAttribute("data-bid");
      row.toggleAttribute("data-no-bid", next.bidders.indexOf(seat) < 0);
      var head = row.querySelector("th");
      head.querySelectorAll(".tag").forEach(function (tag) { tag.remove(); });
      // The name, and its short form where the round's rows are narrow (5 or more players).
      head.replaceChildren.apply(head, Array.prototype.slice.call(head.querySelectorAll(".who, .who-short")));
      [[next.dealer, texts.deals], [next.leader, texts.leads]].forEach(function (tag) {
        if (tag[0] !== seat) return;
        var span = document.createElement("span");
        span.className = "tag";
        span.textContent = tag[1];
        head.append(" ", span);
      });
      [0, 1].forEach(function (column) {
        var wait = document.createElement("span");
        if (column === 0 && row.hasAttribute("data-no-bid")) {
          wait.className = "muted";
          wait.textContent = texts.no_bid;
        } else {
          wait.className = "wait";
          wait.setAttribute("aria-label", texts.not_yet);
          wait.textContent = "·";
        }
        cell(row, column).replaceChildren(wait);
      });
      body.appendChild(row);
    });
    var balance = entry.querySelector(".balance");
    if (balance) {
      balance.innerHTML = next.to_bid;
      balance.hidden = false;
    }

    keysFor(form, "bid", next.cards);
    postTo(form, plan.urls.bid);
    form.dataset.tricks = plan.urls.tricks;
    form.dataset.top = next.top;
    form.dataset.counts = JSON.stringify(next.counts);
    form.dataset.askTricks = texts.ask_tricks;
    if (plan.sealed) form.dataset.sealed = plan.sealed;
    var holds = ruleHolds(next, totals);
    // Sealed bids (V3, V4): the last bidder bids blind, and the server asks for another
    // bid if theirs makes the total, as online.
    if (holds && next.why_total && !plan.sealed) {
      form.dataset.bids = JSON.stringify(next.bids);
      form.dataset.whyTotal = next.why_total;
    } else {
      delete form.dataset.bids;
    }
    var first = entry.querySelector('tr[data-seat="' + next.bidders[0] + '"]');
    first.classList.add("now");
    form.querySelector("input[name=seat]").value = first.dataset.seat;
    var ask = form.querySelector(".ask");
    if (ask) ask.innerHTML = texts.bids.replace("{name}", escapeHtml(nameOf(first)));
    limitBids(form, rowsOf(entry), first);
    return true;
  }

  // A bid, a trick count or "the rest made their bids" tapped while offline: write it into
  // the table, then ask for the next player's as the server would have (it checks every
  // rule when it gets them). What the counts do comes with the form as the engine's data
  // (data-counts): the highest count the next player may be given with so many tricks
  // taken, and what fills itself in with so many counts missing and so many tricks taken;
  // the bid keys likewise (limitBids); a round complete goes on to the next (nextRound).
  function draw(item) {
    var params = new URLSearchParams(item.body);
    var entry = document.getElementById("entry");
    var form = entry && entry.querySelector("form.taps");
    // Its round and player, in words should the server not take it (and whether its bid
    // is sealed: V3, V4).
    item.round = entry && entry.dataset.round;
    var whose = entry && entry.querySelector('tr[data-seat="' + params.get("seat") + '"] .who');
    item.name = whose ? whose.textContent : "";
    item.sealed = Boolean(form && form.dataset.sealed);
    // An entry queued before entries had kinds: a bid or a count by its fields.
    if (!item.kind) item.kind = params.has("bid") ? "bid" : params.has("tricks") ? "tricks" : "other";
    if (item.kind === "trump" || item.kind === "other" || !form) return;
    var rows = rowsOf(entry);
    var steps = form.dataset.counts ? JSON.parse(form.dataset.counts) : null;
    var column = item.kind === "bid" ? 0 : 1;
    var row = null;
    if (item.kind === "rest" || item.kind === "missed") {
      var counts = !steps ? null
        : item.kind === "rest" ? restCounts(rows, steps) : missedCounts(rows, steps, params.get("seat"));
      if (!counts) return;  // the server will say why
      rows.forEach(function (r, i) {
        if (isNaN(countOf(r))) cell(r, 1).replaceChildren(unsavedMark(String(counts[i]), counts[i]));
      });
      row = rows[0];
    } else {
      var value = params.get(column ? "tricks" : "bid");
      row = rows.filter(function (r) { return r.dataset.seat === params.get("seat"); })[0];
      if (!row) return;
      // Sealed bids (V3, V4) stay sealed on screen.
      cell(row, column).replaceChildren(
        unsavedMark(column ? value : form.dataset.sealed || value, value));
    }
    var open = rows.filter(function (r) { return waiting(r, column); });
    var asked = null;
    if (column === 0 && !open.length && form.dataset.tricks && steps) {
      // Hidden bids (V3) are shown together once every bid is in, as online: those this
      // phone knows.
      if (plan && plan.reveal === "all_in") rows.forEach(reveal);
      toTricks(form, steps);
      column = 1;
      open = rows.filter(function (r) { return waiting(r, 1); });
      asked = form.dataset.askTricks;
    } else if (column === 1 && steps && open.length) {
      var taken = rows.reduce(function (sum, r) {
        var n = countOf(r);
        return isNaN(n) ? sum : sum + n;
      }, 0);
      var fill = steps.fill[open.length + " " + taken];
      if (fill !== undefined) {
        open.forEach(function (r) { cell(r, 1).replaceChildren(unsavedMark(String(fill), fill)); });
        open = [];
      }
      form.querySelectorAll("button[name=tricks]").forEach(function (key) {
        key.disabled = parseInt(key.value, 10) > steps.top[taken];
      });
    }
    var ask = form.querySelector(".ask");
    var next = open[0];
    rows.forEach(function (r) { r.classList.remove("now"); });
    // Worked out again when the server has the entries: the bids' balance, the tricks left.
    entry.querySelectorAll(".balance, .tricks-left").forEach(function (el) { el.hidden = true; });
    if (!next) {
      if (column === 1 && nextRound(entry, form, rows)) return;
      form.querySelector(".keys").hidden = true;
      entry.querySelectorAll(".rest-form, .missed-form").forEach(function (el) { el.hidden = true; });
      if (ask) ask.textContent = net.dataset.waiting;
      return;
    }
    next.classList.add("now");
    var oldName = nameOf(row);
    var newName = nameOf(next);
    form.querySelector("input[name=seat]").value = next.dataset.seat;
    if (column === 0) {
      form.querySelectorAll(".why").forEach(function (why) {  // e.g. "no full bid" (V7)
        why.textContent = why.textContent.split(oldName).join(newName);
      });
      limitBids(form, rows, next);
    } else {
      restButton(entry, form, rows, steps);
      missedButton(entry, form, rows, steps);
    }
    if (ask && asked) {
      ask.textContent = asked.replace("{name}", newName);
    } else if (ask && column === 1 && texts.ask_tricks) {
      ask.textContent = texts.ask_tricks.replace("{name}", newName);
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

  // Undo of the last entry not sent yet: it leaves the queue, and the rest is drawn again.
  // An entry already sent may have arrived: its Undo waits for the server's answer.
  function offlineUndo() {
    var entry = document.getElementById("entry");
    if (!entry) return;
    entry.querySelectorAll(".offline-undo").forEach(function (el) { el.remove(); });
    var last = queue[queue.length - 1];
    if (!last || last.sent || !base() || ["bid", "tricks", "rest", "missed"].indexOf(last.kind) < 0) return;
    var seat = new URLSearchParams(last.body).get("seat");
    var row = entry.querySelector('tr[data-seat="' + seat + '"]');
    var words = last.kind === "rest" || last.kind === "missed" || !row ? texts.undo
      : texts[last.kind === "bid" ? "undo_bid" : "undo_tricks"].replace("{name}", nameOf(row));
    var line = document.createElement("p");
    line.className = "undo-line offline-undo";
    if (last.round && last.round !== entry.dataset.round) {
      var note = document.createElement("span");
      note.setAttribute("role", "status");
      note.textContent = texts.scored.replace("{n}", last.round) + " ";
      line.appendChild(note);
    }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small undo";
    button.setAttribute("data-offline-undo", "");
    labelled(button, "↶", words);
    line.appendChild(button);
    // Next to the keys, where the server puts its own Undo (the thumb zone).
    var zone = entry.querySelector(".thumb-zone");
    if (zone) zone.insertBefore(line, zone.querySelector("form.taps"));
    else (entry.querySelector(".seats-form") || entry).appendChild(line);
  }

  // A sealed last bid (V3, V4) that makes the bids add up to what the dealer rule refuses:
  // the server would ask for another one, and so does the page when it knows every other
  // bid (entered here), from the round's data (the bid refused once it is in). Its words,
  // or null.
  function blindRefusal(item) {
    var entry = document.getElementById("entry");
    var form = entry && entry.querySelector("form.taps");
    if (item.kind !== "bid" || !plan || !form || !form.dataset.sealed || !entry.dataset.totals) return null;
    var rows = rowsOf(entry);
    var open = rows.filter(function (r) { return waiting(r, 0); });
    var seat = new URLSearchParams(item.body).get("seat");
    var now = roundOf(parseInt(entry.dataset.round, 10));
    if (open.length !== 1 || open[0].dataset.seat !== seat || !now || !now.why_total ||
        !ruleHolds(now, JSON.parse(entry.dataset.totals))) return null;
    var sum = 0;
    for (var i = 0; i < rows.length; i++) {
      var bid = rows[i] === open[0] ? null : bidOf(rows[i]);
      if (isNaN(bid)) return null;  // one this phone doesn't know: the server checks
      sum += bid || 0;
    }
    var value = parseInt(new URLSearchParams(item.body).get("bid"), 10);
    if (((now.blind || {})[1] || [])[sum] !== value) return null;
    return now.why_total.replace("{name}", nameOf(open[0])).replace("{bid}", value);
  }

  // A refusal while offline, said next to ``form`` (the button tapped, or the keys).
  function alertAt(form, text) {
    document.querySelectorAll(".offline-refused").forEach(function (el) { el.remove(); });
    var alert = document.createElement("p");
    alert.className = "alert offline-refused";
    alert.setAttribute("role", "alert");
    alert.textContent = text;
    if (form && form.parentNode) form.parentNode.insertBefore(alert, form);
    else if (api.banner) api.banner.before(alert);
  }

  function redraw(added) {
    fresh();
    var shown = base();
    if (shown) {
      restore(shown);
      queue.forEach(function (item) { if (item !== added) draw(item); });
    }
    var refusal = added && blindRefusal(added);
    if (refusal) {
      api.takeBack();
      fresh();
    } else if (added) {
      draw(added);
    }
    offlineUndo();
    if (refusal) alertAt(document.querySelector("#entry form.taps"), refusal);
    api.store();
    api.show();
    // The tapped key was drawn anew: someone entering with a keyboard goes on at the next.
    var focused = document.activeElement;
    if (added && (!focused || focused === document.body)) {
      var next = document.querySelector("#entry form.taps .key:not([disabled])");
      if (next) next.focus({ preventScroll: true });
    }
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-offline-undo]") || !api.takeBack()) return;
    var shown = api.shown();
    if (!api.queue().length && shown) restore(shown);
    redraw(null);
    var key = document.querySelector("#entry form.taps .key:not([disabled])");
    if (key) key.focus({ preventScroll: true });
  });

  // What can't be drawn (a correction, a take-back) would go out on top of a round the
  // page doesn't show: refused while offline, next to the button.
  function refuse(elt) {
    fresh();
    alertAt(elt && elt.closest("form"), texts.online_only || net.dataset.offline);
  }

  // Once everything is sent: the server's totals against the ones drawn here.
  function compare(check) {
    fresh();
    var entry = document.getElementById("entry");
    var theirs = entry && entry.dataset.totals;
    // As numbers: the server writes its list with spaces between them.
    if (check && drawn && theirs && JSON.stringify(JSON.parse(theirs)) !== JSON.stringify(drawn) && api.banner) {
      api.banner.hidden = false;
      api.banner.textContent = texts.differs;
    }
    drawn = null;
  }

  // -- back online: what the server took ------------------------------------------------------

  // The sealed bids (V3, V4) this phone entered and the server took. The server shows
  // them to nobody before the round is played, this page included, so the page keeps the
  // ones it sent, to score offline a round whose bids went in online. Kept with the
  // version of the server's answer: any other change (another phone's) is another
  // version, and then none of them counts any more. Only the open round's and the one
  // before it (which Undo may open again).
  var SEALED = "scorekeeper:sealed:" + location.pathname;
  var sealed = api.load(SEALED, null);

  function roundIn(html) {
    var found = /id="entry"[^>]*data-round="(\d+)"/.exec(html);
    return found ? parseInt(found[1], 10) : NaN;
  }

  // An entry the server took (``body``, answered with ``html``; ``secret``: a sealed
  // bid). A bid never scores a round, so the round open after it is its own.
  function remember(body, html, secret) {
    var params = new URLSearchParams(body);
    var version = api.versionIn(html);
    var round = roundIn(html);
    var bids = sealed && sealed.version === params.get("v") ? sealed.bids : {};
    if (secret && params.has("bid") && !isNaN(round)) bids[round + ":" + params.get("seat")] = params.get("bid");
    Object.keys(bids).forEach(function (key) {
      if (isNaN(round) || parseInt(key, 10) < round - 1) delete bids[key];
    });
    sealed = version && Object.keys(bids).length ? { version: version, bids: bids } : null;
    api.save(SEALED, sealed);
  }

  // The sealed bid this phone entered for ``seat`` in ``round``, while nothing but its
  // own entries changed the game since the page's version; NaN when it doesn't know.
  function sealedBid(round, seat) {
    var entry = document.getElementById("entry");
    var bid = sealed && entry && sealed.version === entry.dataset.version ? sealed.bids[round + ":" + seat] : undefined;
    return bid === undefined ? NaN : parseInt(bid, 10);
  }

  // Once the server refused an entry: its state after each answer, on which each later
  // entry is checked before it goes, and the report in words, kept across a reload.
  var REPORT = "scorekeeper:report:" + location.pathname;
  var kept = api.load(REPORT, null) || {};
  var server = kept.server || null;
  var report = kept.lines || [];

  function keep() { api.save(REPORT, report.length || server ? { lines: report, server: server } : null); }

  // The server's state in its answer: the version, the open round (null once the game is
  // over), what it asks for ("bid", "tricks" or nothing), the seat asked, and whose bids
  // and counts are in.
  function stateIn(page) {
    var panel = page.getElementById("entry");
    if (!panel || !panel.dataset.version) return null;
    var form = panel.querySelector("form.taps");
    var state = {
      version: panel.dataset.version,
      round: panel.dataset.round ? parseInt(panel.dataset.round, 10) : null,
      asks: !form ? null : form.querySelector("button[name=bid]") ? "bid" : "tricks",
      next: form ? form.querySelector("input[name=seat]").value : null,
      bids: {},
      counts: {}
    };
    rowsOf(panel).forEach(function (row) {
      state.bids[row.dataset.seat] = Boolean(cell(row, 0).querySelector(".val"));
      state.counts[row.dataset.seat] = Boolean(cell(row, 1).querySelector(".val"));
    });
    return state;
  }

  // Why ``item`` no longer fits the server's state (a reason's name), or null when it may
  // still go. An entry queued before entries carried their round: the server decides.
  function unfit(item, state) {
    var round = parseInt(item.round, 10);
    if (isNaN(round)) return null;
    if (state.round === null || round < state.round) return "scored";
    if (round > state.round || item.kind === "other") return "after";
    var seat = new URLSearchParams(item.body).get("seat");
    if (item.kind === "bid") {
      return state.bids[seat] ? "held" : state.asks === "bid" && state.next === seat ? null : "after";
    }
    if (item.kind === "tricks") return state.counts[seat] ? "held" : state.asks === "tricks" ? null : "after";
    if (item.kind === "rest" || item.kind === "missed") return state.asks === "tricks" ? null : "after";
    return null;  // a trump of the open round
  }

  // A line of the report: ``how`` ("refused", "scored", "held", "after") ``item``, in
  // the game's words; ``reason`` the server's message.
  function words(how, item, reason) {
    var params = new URLSearchParams(item.body);
    var values = {
      name: item.name, bid: params.get("bid"), tricks: params.get("tricks"), n: item.round,
      reason: reason || net.dataset.refused
    };
    function fill(text) {
      return String(text).replace(/\{(\w+)\}/g, function (all, name) {
        return values[name] === undefined || values[name] === null ? all : values[name];
      });
    }
    var what = item.kind === "bid" && item.sealed ? "entry_sealed_bid" : "entry_" + item.kind;
    values.entry = fill(texts[what] || texts.entry_other || "");
    var line = texts[how === "refused" ? "not_saved" : "not_sent_" + how];
    return line ? fill(line) : how === "refused" ? values.reason : net.dataset.refused;
  }

  // The server answered ``item`` (``ok``: took it): a sealed bid is kept; a refusal is
  // said, and from then on each later entry that no longer fits what the server holds
  // leaves the queue, said too (one that went out before goes as it was: it may have
  // arrived, and the server answers it as the first time).
  function answered(item, ok, html) {
    fresh();
    var page = new DOMParser().parseFromString(html, "text/html");
    if (ok) remember(item.body, html, item.sealed);
    else {
      var alert = page.querySelector(".alert");
      report.push(words("refused", item, alert && alert.textContent.trim()));
    }
    if (server || !ok) server = stateIn(page);
    while (server && queue.length && !queue[0].sent) {
      var why = unfit(queue[0], server);
      if (!why) break;
      report.push(words(why, queue.shift()));
    }
    keep();
  }

  // Everything is sent: the report where the person looks first (the banner over the
  // round), the first few entries by name and the rest counted. Whether there was one.
  function told() {
    fresh();
    var lines = report.filter(function (line, i) { return line && report.indexOf(line) === i; });
    report = [];
    server = null;
    keep();
    if (!lines.length || !api.banner) return lines.length > 0;
    if (lines.length > 5 && texts.more_not_sent) {
      lines = lines.slice(0, 4).concat([texts.more_not_sent.replace("{n}", lines.length - 4)]);
    }
    if (texts.now_held) lines.push(texts.now_held);
    api.banner.hidden = false;
    api.banner.setAttribute("role", "alert");
    api.banner.replaceChildren();
    lines.forEach(function (line, i) {
      if (i) api.banner.appendChild(document.createElement("br"));
      api.banner.appendChild(document.createTextNode(line));
    });
    return true;
  }

  return {
    redraw: redraw,
    remember: remember,
    answered: answered,
    told: told,
    refuse: refuse,
    compare: compare,
    undoLine: function () { fresh(); offlineUndo(); },
    // A page older than what the server last showed (the worker's copy): brought up to it.
    catchUp: function () {
      var shown = api.shown();
      if (shown) restore(shown);
    }
  };
};
