// Scorekeeper's service worker. Static files (CSS, JavaScript, icons) come from a cache
// and are never fetched again while they are unchanged; pages and the API always go to
// the network, so a score on screen is never an old one served from a cache.
// The server puts VERSION and PRECACHE (the static files' versioned URLs) in front of
// this file (scorekeeper/web/pwa.py): a changed file means a new worker and a new cache.
/* global VERSION, PRECACHE */
"use strict";

var CACHE = "static-" + VERSION;
var STATIC = new URL("static/", self.registration.scope).pathname;

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

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
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
        });
      });
    })
  );
});
