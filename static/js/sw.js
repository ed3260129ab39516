// The service worker (served at /sw.js so that its scope is the whole app). Network first for
// everything it keeps, so a phone online sees the latest; when the network is gone it answers
// from its cache: the app shell (CSS, JS, icons) and the last game pages seen. A game page the
// network has not answered within PAGE_WAIT_MS is shown from its kept copy at once, marked
// (<html data-kept="1">): the network's answer still arrives and is kept, and the page's own
// poll (game.js, live.js) asks for the latest at once and brings the page up to date.
// Round writes (POST) are never answered here (static/js/game.js keeps a round sent offline),
// but one drops the kept copy of its game's page: that copy is behind the write.
"use strict";

// The stylesheets pages link at their end (the rest is inline in each page), by their versioned
// addresses: /sw.js writes in the current ones (pwa/views.py), so new CSS makes a new worker,
// which keeps them (in a shell cache of its own name) before the old one goes.
var STYLESHEETS = ["/static/css/later.css"];
var SHELL_CACHE = "sk-shell-v4";
var PAGE_CACHE = "sk-pages-v1";
var MAX_PAGES = 12;
// How long a game page waits for the network before its kept copy is shown (a phone's network
// answers well within it; Slow 3G takes 2 s a request).
var PAGE_WAIT_MS = 700;
// When this worker last saw a write to each game page (path): a page's answer asked for before
// it is older than the write and is not kept.
var lastWrite = {};
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
// A write to a game (a round, a correction, undo, end...): its page is /games/<id>.
var WRITE = /^(\/games\/\d+)\//;
// A page's answers that end its kept copy.
var GONE = [403, 404, 410];
// The language switcher (/language/<code>?next=...): every kept page is in the old language.
var LANGUAGE = /^\/language\//;
// When the kept pages were last all dropped: a page's answer asked for before is not kept.
var forgotAll = 0;

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

// The kept copy of a page, marked as such for its scripts (an attribute on <html>).
function marked(response) {
  return response.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    return new Response(html.replace(/<html\b/i, '<html data-kept="1"'), {
      status: response.status, statusText: response.statusText, headers: headers
    });
  });
}

function kept(request) {
  return caches.open(PAGE_CACHE).then(function (cache) { return cache.match(request); });
}

// A game page: the network's answer if it comes within PAGE_WAIT_MS, else the kept copy (if
// any) at once while the network's answer is still awaited and kept; offline, the kept copy.
function pageFirst(event) {
  var request = event.request;
  var path = new URL(request.url).pathname;
  var asked = Date.now();
  var network = fetch(request);
  event.waitUntil(network.then(function (response) {
    if (response.ok && response.type === "basic" && !((lastWrite[path] || 0) >= asked) &&
        forgotAll < asked) {
      var copy = response.clone();
      return caches.open(PAGE_CACHE).then(function (cache) { return keepPage(cache, request, copy); });
    }
    if (GONE.indexOf(response.status) !== -1) {
      // The game was deleted, or this phone lost its right to it: its copy goes too.
      return caches.open(PAGE_CACHE).then(function (cache) { return cache.delete(request); });
    }
    return null;
  }).catch(function () { /* offline, or the copy could not be kept: the next answer will be */ }));
  return new Promise(function (resolve) {
    var answered = false;
    function answer(response) {
      if (!answered) { answered = true; resolve(response); }
    }
    function fallBack(orElse) {
      return kept(request).then(function (copy) {
        if (copy) { return marked(copy).then(answer); }
        if (orElse) { answer(orElse); }
        return null;
      });
    }
    network.then(answer, function () { return fallBack(Response.error()); });
    setTimeout(function () { if (!answered) { fallBack(null); } }, PAGE_WAIT_MS);
  });
}

function forgetPage(path) {
  lastWrite[path] = Date.now();
  return caches.open(PAGE_CACHE).then(function (cache) {
    return cache.delete(new URL(path, self.location.origin).href, { ignoreVary: true });
  });
}

// Every kept page, before the request that makes them all stale (a new language) is sent: the
// page it leads to is then never shown from a copy in the old words.
function forgetAllPages(request) {
  forgotAll = Date.now();
  return caches.delete(PAGE_CACHE).then(function () { return fetch(request); });
}

// The app shell: the network's answer (kept), or offline the kept one.
function networkFirst(event, cacheName) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      event.waitUntil(caches.open(cacheName).then(function (cache) {
        return cache.put(request, copy);
      }));
    }
    return response;
  }).catch(function () {
    return caches.open(cacheName).then(function (cache) {
      return cache.match(request, { ignoreSearch: true });
    }).then(function (cached) {
      return cached || Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method !== "GET") {
    var write = WRITE.exec(url.pathname);
    if (write) { event.waitUntil(forgetPage(write[1])); }
    return;
  }
  if (LANGUAGE.test(url.pathname)) {
    event.respondWith(forgetAllPages(request));
  } else if (PAGE.test(url.pathname) && request.mode === "navigate") {
    event.respondWith(pageFirst(event));
  } else if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/manifest.webmanifest") {
    event.respondWith(networkFirst(event, SHELL_CACHE));
  }
});
