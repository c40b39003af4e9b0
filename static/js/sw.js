// Scorekeeper's service worker. Static files (CSS, JavaScript, icons) come from a cache
// and are never fetched again while they are unchanged; pages and the API always go to
// the network, so a score on screen is never an old one served from a cache while the
// network answers. The one exception, only without a connection: the scorer's own game
// page (marked X-Offline-Copy by the server) is kept on this phone each time it loads, and
// opens from there when the network doesn't answer; the page then draws the entries it
// still has to send on top of it (app.js).
// The server puts VERSION and PRECACHE (the static files' versioned URLs) in front of
// this file (scorekeeper/web/pwa.py): a changed file means a new worker and a new cache.
/* global VERSION, PRECACHE */
"use strict";

var CACHE = "static-" + VERSION;
var STATIC = new URL("static/", self.registration.scope).pathname;
var GAMES = new URL("games/", self.registration.scope).pathname;
var PAGES = "pages";  // the scorer's game pages, kept across versions of the worker

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (keys) {
        return Promise.all(keys.filter(function (key) {
          return key.indexOf("static-") === 0 && key !== CACHE;
        }).map(function (key) { return caches.delete(key); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

// A game page ("/games/<id>", no deeper): network first; the scorer's copy kept by its
// path alone, and dropped as soon as the page comes without the mark (scoring passed to
// another phone, the game deleted).
function gamePage(request, url) {
  var rest = url.pathname.slice(GAMES.length);
  return request.method === "GET" && request.mode === "navigate" &&
    url.origin === self.location.origin && url.pathname.indexOf(GAMES) === 0 &&
    rest.length > 0 && rest.indexOf("/") < 0;
}

function networkFirst(event, url) {
  var request = event.request;
  var key = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    if (response.type !== "opaqueredirect" && !url.search) {
      var keep = response.ok && response.headers.get("X-Offline-Copy") === "keep";
      var copy = keep ? response.clone() : null;
      event.waitUntil(caches.open(PAGES).then(function (cache) {
        if (copy) return cache.put(key, copy);
        return cache.delete(key);
      }));
    }
    return response;
  }, function (error) {
    return caches.open(PAGES)
      .then(function (cache) { return cache.match(key); })
      .then(function (kept) {
        if (kept) return kept;
        throw error;
      });
  });
}

// A scorer's page opened before this worker was there (the first visit): the page asks
// for it to be kept, and it is fetched once more, as a reload would.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (typeof data.keep !== "string") return;
  var url = new URL(data.keep, self.location.origin);
  if (url.origin !== self.location.origin || url.search) return;
  var request = new Request(url.href, { credentials: "same-origin" });
  event.waitUntil(fetch(request).then(function (response) {
    if (!response.ok || response.headers.get("X-Offline-Copy") !== "keep") return null;
    return caches.open(PAGES).then(function (cache) { return cache.put(url.href, response); });
  }).catch(function () { /* offline: the next load keeps it */ }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (gamePage(request, url)) {
    event.respondWith(networkFirst(event, url));
    return;
  }
  // Everything but our own static files: the browser fetches it as if there were no worker.
  if (request.method !== "GET" || url.origin !== self.location.origin ||
      url.pathname.indexOf(STATIC) !== 0) {
    return;
  }
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (hit) {
        if (hit) return hit;
        return fetch(request).then(function (response) {
          // Only a versioned address always means the same bytes.
          if (response.ok && url.searchParams.has("v")) cache.put(request, response.clone());
          return response;
        }, function (error) {
          // Offline, a kept page may name a file of an older version: the one cached now.
          return cache.match(request, { ignoreSearch: true }).then(function (same) {
            if (same) return same;
            throw error;
          });
        });
      });
    })
  );
});
