// The service worker (served at /sw.js so that its scope is the whole app). Network first for
// everything it keeps, so a phone online always sees the latest; when the network is gone it
// answers from its cache: the app shell (CSS, JS, icons) and the last game pages seen.
// Round writes (POST) are never touched here: static/js/game.js keeps a round sent offline.
"use strict";

// The stylesheets pages link at their end (the rest is inline in each page), by their versioned
// addresses: /sw.js writes in the current ones (pwa/views.py), so new CSS makes a new worker,
// which keeps them (in a shell cache of its own name) before the old one goes.
var STYLESHEETS = ["/static/css/later.css"];
var SHELL_CACHE = "sk-shell-v4";
var PAGE_CACHE = "sk-pages-v1";
var MAX_PAGES = 12;
var SHELL = STYLESHEETS.concat([
  "/static/js/app.js",
  "/static/js/game.js",
  "/static/js/round.js",
  "/static/js/waiting.js", // fetched by game.js only while rounds wait offline
  "/static/img/favicon.svg",
  "/static/img/icon-192.png",
  "/manifest.webmanifest"
]);
// Game pages (scorer's and share link's); their live parts answer offline from the page.
var PAGE = /^\/(games\/\d+|s\/[A-Za-z0-9_-]+)$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then(function (cache) { return cache.addAll(SHELL); })
      .catch(function () { /* a missing file must not stop the worker from installing */ })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name !== SHELL_CACHE && name !== PAGE_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keepPage(cache, request, response) {
  // Most recent last: a page seen again moves to the end; the oldest go beyond MAX_PAGES.
  return cache.delete(request).then(function () {
    return cache.put(request, response);
  }).then(function () {
    return cache.keys();
  }).then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (key) {
      return cache.delete(key);
    }));
  });
}

function networkFirst(event, cacheName, isPage) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      event.waitUntil(caches.open(cacheName).then(function (cache) {
        return isPage ? keepPage(cache, request, copy) : cache.put(request, copy);
      }));
    }
    return response;
  }).catch(function () {
    return caches.open(cacheName).then(function (cache) {
      return cache.match(request, { ignoreSearch: !isPage });
    }).then(function (cached) {
      return cached || Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (PAGE.test(url.pathname) && request.mode === "navigate") {
    event.respondWith(networkFirst(event, PAGE_CACHE, true));
  } else if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/manifest.webmanifest") {
    event.respondWith(networkFirst(event, SHELL_CACHE, false));
  }
});
