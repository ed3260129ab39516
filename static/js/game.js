// The game page's script, in one file (one request on a slow network): first the drafts and
// the outbox, then the live updates and the Share button.
//
// The round form keeps what was typed, on this phone, until that round is saved: every input
// is stored in localStorage (per game page and round number) and put back after a reload, Back
// or a closed tab. Each draft has its own idempotency key (made here, kept with the draft: a
// page kept offline by the service worker carries an old key, never used again). A round sent
// while the network is gone waits in an outbox and goes out when it is back, with its draft's
// key, so the server saves it exactly once; meanwhile the page shows the next round to type,
// and the rounds waiting on the sheet. A typed round the server has moved past (another phone
// saved it) is never dropped: the server's comparison page lets the scorer choose.
// Without JavaScript (or storage) the form posts as it always did.
// The round sheet carries its tile grid once (a <template>): a hand gets its copy, named for it,
// only when something needs that hand's tiles (its picker opened, a draft or a photo ticking
// tiles), not all eight at load (1,520 boxes on a double-18 set: most of the page's setup).
// A hand without a copy sends no tile, as an untouched grid would.
(function () {
  "use strict";
  var grid = document.getElementById("tile-grid");
  window.skTileGrid = function (hand) {
    var picker = hand.querySelector("details.tile-picker");
    if (grid && picker && !picker.querySelector(".tile-grid")) {
      var copy = grid.content.cloneNode(true);
      copy.querySelectorAll(".tile-check").forEach(function (box) { box.name = picker.dataset.name; });
      picker.appendChild(copy);
    }
    return hand.querySelectorAll(".tile-check");
  };
})();

(function () {
  "use strict";
  var PREFIX = "sk:draft:";
  var OUTBOX = "sk:outbox";
  var SEEN = "sk:seen-messages"; // the page messages already shown (data-once)
  var RETRY_MS = 10000;
  var SENT = "sk:sent"; // sessionStorage: the round the outbox sent just before a reload
  // Fields the server fills for each page view: never taken from a draft.
  var SERVER_FIELDS = { csrf_token: true, number: true, round_version: true, submit: true };
  var form = document.getElementById("round-form");
  var statusLine = document.getElementById("offline-status");
  // The game page's address (an answer to a rejected save is shown at .../rounds).
  var game = form
    ? new URL(form.action, window.location.href).pathname.replace(/\/rounds$/, "")
    : window.location.pathname.replace(/\/+$/, "");
  var storage = null;
  try {
    storage = window.localStorage;
    storage.setItem(PREFIX + "probe", "1");
    storage.removeItem(PREFIX + "probe");
  } catch (error) {
    return; // private mode or storage refused: the plain form still works
  }

  function read(key, fallback) {
    try { return JSON.parse(storage.getItem(key)) || fallback; } catch (error) { return fallback; }
  }
  function write(key, value) {
    try { storage.setItem(key, JSON.stringify(value)); } catch (error) { /* storage full */ }
  }

  // A copy of the page shown again (the service worker's, offline) must not repeat its
  // messages ("Game on! Round 1 is ready."): each rendering's messages have a name.
  var messages = document.querySelector(".flashes[data-once]");
  if (messages) {
    var seen = read(SEEN, []);
    if (seen.indexOf(messages.dataset.once) !== -1) {
      messages.textContent = "";
    } else {
      write(SEEN, seen.concat([messages.dataset.once]).slice(-30));
    }
  }

  function say(kind, round) {
    if (!statusLine) { return; }
    statusLine.textContent = (statusLine.dataset[kind] || "").replace("__N__", round);
    statusLine.hidden = false;
  }

  // What waits in the outbox for this game, in one line: "Round 2 is saved on this phone…", or
  // "Rounds 1 and 2 are…" (the list in the page's language) while several wait.
  function sayWaiting(list) {
    var rounds = list.map(function (item) { return String(item.round); });
    if (!rounds.length) { return; }
    if (rounds.length === 1 || !statusLine || !statusLine.dataset.queuedMany) {
      say("queued", rounds[rounds.length - 1]);
      return;
    }
    var words = rounds.join(", ");
    try {
      words = new Intl.ListFormat(document.documentElement.lang || undefined, { type: "conjunction" }).format(rounds);
    } catch (error) { /* no Intl.ListFormat: commas */ }
    say("queuedMany", words);
  }

  function roundNumber() {
    return form && form.elements.number ? form.elements.number.value : "";
  }
  function draftKey(round) { return PREFIX + game + ":" + round; }
  function newKey() {
    return "d" + Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  function setKey(key) {
    if (form.elements.idempotency_key) { form.elements.idempotency_key.value = key; }
  }

  function pairs() {
    var list = [];
    new FormData(form).forEach(function (value, name) {
      // A photo of a hand is read, never kept: only typed text goes in a draft.
      if (typeof value === "string") { list.push([name, value]); }
    });
    return list;
  }

  // What was typed (not what the server put there): text in a box, a tick, who went out.
  function hasInput() {
    if (!form) { return false; }
    return Array.prototype.some.call(form.elements, function (field) {
      if (field.type === "checkbox") { return field.checked; }
      if (field.type === "radio") { return field.name === "out" && field.checked; }
      if (field.type === "text" || field.type === "number" || field.type === "tel") {
        return field.value.trim() !== "";
      }
      return false;
    });
  }
  window.skRoundHasInput = hasInput;

  // The same for a stored draft: its pairs beyond the key, the counting mode and the server's.
  function typedIn(list) {
    return (list || []).some(function (pair) {
      var name = pair[0];
      return !SERVER_FIELDS[name] && name !== "idempotency_key" && name.indexOf("mode_") !== 0 &&
        String(pair[1]).trim() !== "";
    });
  }

  function restore(saved) {
    var values = {};
    saved.forEach(function (pair) {
      (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
    });
    // A hand whose tiles were ticked gets its grid back before the boxes are ticked.
    form.querySelectorAll("details.tile-picker").forEach(function (picker) {
      if (picker.dataset.name in values) { window.skTileGrid(picker.closest("fieldset.hand")); }
    });
    Array.prototype.forEach.call(form.elements, function (field) {
      var name = field.name;
      if (!name || SERVER_FIELDS[name] || !(name in values)) {
        if (name && !SERVER_FIELDS[name] && (field.type === "checkbox")) { field.checked = false; }
        return;
      }
      if (field.type === "checkbox" || field.type === "radio") {
        field.checked = values[name].indexOf(field.value) !== -1;
      } else if (field.type !== "submit" && field.type !== "button" && field.type !== "file") {
        field.value = values[name][0];
      }
    });
  }

  // Send the form as it is to the server, whose answer keeps what was typed: saved, errors
  // next to the fields, or (a round saved elsewhere meanwhile) both versions and the choice.
  // From then on that answer holds the round, not the draft.
  function answerFromServer() {
    storage.removeItem(draftKey(roundNumber()));
    HTMLFormElement.prototype.submit.call(form);
  }

  // Drafts of rounds this page no longer offers: an empty one is done with; one with typed
  // values (another phone saved that round meanwhile) is offered for comparison, the newest.
  function oldDrafts(current) {
    var stale = null;
    for (var i = storage.length - 1; i >= 0; i -= 1) {
      var key = storage.key(i);
      if (key && key.indexOf(PREFIX + game + ":") === 0) {
        var round = parseInt(key.slice((PREFIX + game + ":").length), 10);
        if (current && round >= current) { continue; }
        var list = read(key, null);
        if (current && typedIn(list) && (!stale || round > stale.round)) {
          stale = { round: round, fields: list };
        } else if (!current || !typedIn(list)) {
          storage.removeItem(key);
        }
      }
    }
    return stale;
  }

  // The outbox, and the page moving on while rounds wait in it ------------------------------

  function waiting() {
    return read(OUTBOX, []).filter(function (item) { return item.game === game; })
      .sort(function (a, b) { return parseInt(a.round, 10) - parseInt(b.round, 10); });
  }

  // How the page shows the rounds waiting (static/js/waiting.js): fetched when there are some,
  // not with every page (the service worker keeps it for offline use).
  var scripts = document.currentScript ? document.currentScript.src.replace(/game\.js.*$/, "") : "/static/js/";
  var pending = null;
  function withView(then) {
    if (window.skWaitingView) { then(window.skWaitingView); return; }
    if (!pending) {
      pending = [];
      var script = document.createElement("script");
      script.src = scripts + "waiting.js";
      script.onload = function () {
        var calls = pending;
        pending = null;
        calls.forEach(function (call) { call(window.skWaitingView); });
      };
      document.head.appendChild(script);
    }
    pending.push(then);
  }
  // The form is for round `number` (the page's heading, engine and opener follow).
  function showRound(number) {
    form.elements.number.value = String(number);
    withView(function (view) { view.showRound(form, number); });
  }
  function showWaiting(list) {
    if (list.length || window.skWaitingView) {
      withView(function (view) { view.showWaiting(list); });
    }
  }
  window.skShowWaiting = function () { showWaiting(waiting()); };
  window.skWaiting = function () { return waiting().length > 0; };

  var flushing = false;

  function post(action, list) {
    var body = new URLSearchParams();
    list.forEach(function (pair) { body.append(pair[0], pair[1]); });
    // "manual": a saved round answers with a redirect; following it here would use up the
    // page's "Round N saved" message before the phone shows the page.
    return fetch(action, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual"
    });
  }

  function saved(response) {
    return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
  }

  // A form token made now (a queued round may wait longer than its token lives).
  function freshToken(page) {
    return fetch(page, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var match = /name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"/.exec(html);
        return match ? (match[1] || match[2]) : null;
      });
  }

  function withToken(list, token) {
    return list.map(function (pair) {
      return pair[0] === "csrf_token" && token ? [pair[0], token] : pair;
    });
  }

  function refused(item) {
    // The server would not take it as it is (another phone saved that round, a mistake, or
    // its key already sent another round): the scorer decides, with the server's answer next
    // to the fields.
    if (form && item.game === game) {
      restore(item.fields);
      form.elements.number.value = item.round;
      setKey(item.key);
      say("refused", item.round);
      HTMLFormElement.prototype.submit.call(form);
    } else {
      write(PREFIX + item.game + ":" + item.round, item.fields);
    }
  }

  function flush() {
    var box = read(OUTBOX, []);
    if (flushing || !box.length || navigator.onLine === false) { return; }
    flushing = true;
    var item = box[0];
    freshToken(item.game)
      .then(function (token) { return post(item.action, withToken(item.fields, token)); })
      .then(function (response) {
        write(OUTBOX, read(OUTBOX, []).filter(function (other) { return other.key !== item.key; }));
        flushing = false;
        if (saved(response)) {
          document.documentElement.dataset.sentRound = item.round;
          say("sent", item.round);
          if (read(OUTBOX, []).length) {
            flush();
          } else if (!hasInput()) {
            // The page reloads with the round on the sheet: "Sent" must outlive the reload.
            try {
              window.sessionStorage.setItem(SENT, JSON.stringify({ game: item.game, round: item.round }));
            } catch (error) { /* no session storage: the sheet shows the round anyway */ }
            window.location.reload();
          }
        } else {
          refused(item);
        }
      })
      .catch(function () { flushing = false; /* still offline: the next try will do */ });
  }

  function queue(list) {
    var round = roundNumber();
    var key = form.elements.idempotency_key ? form.elements.idempotency_key.value : "";
    var box = read(OUTBOX, []);
    box.push({ game: game, action: form.action, round: round, key: key, fields: list, at: Date.now() });
    write(OUTBOX, box);
    storage.removeItem(draftKey(round));
    sayWaiting(waiting());
    // The form moves on to the next round, as the page will once the round is sent, with a
    // draft (and a key) of its own.
    form.reset();
    showRound(parseInt(round, 10) + 1);
    setKey(newKey());
    showWaiting(waiting());
    form.dispatchEvent(new Event("change", { bubbles: true }));
    statusLine.scrollIntoView({ block: "center" });
  }

  // Wiring ----------------------------------------------------------------------------------

  if (form) {
    var list = waiting();
    var current = parseInt(roundNumber(), 10);
    // A page older than the rounds waiting (the copy kept offline): on to the next one.
    var moved = list.length ? parseInt(list[list.length - 1].round, 10) + 1 : 0;
    if (moved > current) {
      current = moved;
      showRound(current);
    }
    var stale = oldDrafts(current);
    var alreadyAnswered = form.querySelector("[role=alert]"); // the server kept what was typed
    var draft = read(draftKey(roundNumber()), null);
    if (draft && !alreadyAnswered) {
      restore(draft);
    } else if (!alreadyAnswered) {
      setKey(newKey()); // the page's own key may be a kept copy's
    }
    var remember = function () { write(draftKey(roundNumber()), pairs()); };
    form.addEventListener("input", remember);
    form.addEventListener("change", remember);
    if (draft && !alreadyAnswered) {
      // After the page's other scripts have set up: let them see the restored values.
      document.addEventListener("DOMContentLoaded", function () {
        var out = form.querySelector('input[name="out"]:checked');
        if (out) { out.dispatchEvent(new Event("change", { bubbles: true })); }
      });
    }
    // "Compare": what was typed goes to the server as Save sends it, and the server's page
    // shows the round saved elsewhere beside it, with the choice.
    window.skCompare = function () {
      if (stale) {
        storage.removeItem(draftKey(stale.round));
        restore(stale.fields);
        form.elements.number.value = String(stale.round);
        HTMLFormElement.prototype.submit.call(form);
      } else {
        answerFromServer();
      }
    };
    if (stale && !alreadyAnswered) {
      var notice = document.getElementById("game-changed");
      if (notice) {
        notice.querySelector("span").textContent = notice.dataset.text.replace("__N__", stale.round);
        notice.hidden = false;
      }
    }
    // A copy the service worker kept (shown while the network was slow, sw.js) may be older
    // than its form token: a round sent from it takes a token made now (into the form too,
    // for the server's answer below), as a round from the outbox does.
    var kept = document.documentElement.dataset.kept === "1";
    function sendable(list) {
      if (!kept) { return Promise.resolve(list); }
      return freshToken(game).then(function (token) {
        if (token && form.elements.csrf_token) { form.elements.csrf_token.value = token; }
        return withToken(list, token);
      });
    }
    form.addEventListener("submit", function (event) {
      if (!window.fetch || !window.URLSearchParams) { return; }
      event.preventDefault();
      var list = pairs();
      if (event.submitter && event.submitter.name) {
        list.push([event.submitter.name, event.submitter.value]);
      }
      if (navigator.onLine === false) { queue(list); return; }
      sendable(list).then(function (ready) {
        list = ready;
        return post(form.action, list);
      }).then(function (response) {
        // 400: the form's token expired (the page stayed open longer than a token lives, or
        // the phone's session was renewed). Once more with a token made now: the round's key
        // makes a second send safe, and nothing typed is given up for a stale token.
        if (response.status !== 400) { return response; }
        return freshToken(game).then(function (token) {
          if (!token) { return response; }
          if (form.elements.csrf_token) { form.elements.csrf_token.value = token; }
          list = withToken(list, token);
          return post(form.action, list);
        });
      }).then(function (response) {
        if (response.status === 400) {
          // Still refused: the server's page says why; the draft stays for the next visit.
          HTMLFormElement.prototype.submit.call(form);
          return;
        }
        if (saved(response)) {
          storage.removeItem(draftKey(roundNumber()));
          // Open the page afresh at the form's anchor (#record: the message and the next
          // round's first field); a hash-only change would not load the new page.
          // The browser would put the old scroll position back after the reload: not this time.
          if ("scrollRestoration" in window.history) { window.history.scrollRestoration = "manual"; }
          window.history.replaceState(null, "", game + new URL(form.action, window.location.href).hash);
          window.location.reload();
        } else {
          // Not saved (a mistake, a warning, another phone first): the server's page says why.
          answerFromServer();
        }
      }).catch(function () { queue(list); });
    });
  } else if (document.getElementById("game-current")) {
    oldDrafts(0); // the game is over, or this phone only watches
  }

  showWaiting(waiting());
  sayWaiting(waiting());
  try {
    var sent = JSON.parse(window.sessionStorage.getItem(SENT));
    window.sessionStorage.removeItem(SENT);
    if (sent && sent.game === game) {
      document.documentElement.dataset.sentRound = sent.round;
      say("sent", sent.round);
    }
  } catch (error) { /* no session storage: the sheet shows the round anyway */ }
  window.addEventListener("online", flush);
  window.setInterval(flush, RETRY_MS);
  flush();
})();

// The game page: keeps itself current while another phone records rounds (the Share button
// is app.js's: the share page has one too). Polls the page's live part with If-None-Match (304 while nothing changed, paused
// while the tab is hidden); a round typed here is never replaced: the page says another phone
// saved it and offers a reload instead.
(function () {
  "use strict";
  var current = document.getElementById("game-current");
  var DELAY = 3000;
  var etag = null;
  // The service worker showed its kept copy (the network was slow, sw.js): ask at once.
  var kept = document.documentElement.dataset.kept === "1";

  // The page again from the server: the worker's copy of it is behind too, and is dropped
  // first, so the reload waits for the network's answer instead of showing that copy again.
  function reloadFresh() {
    var url = window.location.origin + window.location.pathname;
    var dropped = !window.caches ? Promise.resolve() : window.caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.indexOf("sk-pages") === 0; })
        .map(function (name) {
          return window.caches.open(name).then(function (cache) { return cache.delete(url, { ignoreVary: true }); });
        }));
    });
    dropped.catch(function () { /* no cache to drop */ }).then(function () { window.location.reload(); });
  }

  function swap(id, holder) {
    var old = document.getElementById(id);
    var fresh = holder.querySelector("#" + id);
    if (old && fresh) {
      if (old.dataset.liveUrl) { fresh.dataset.liveUrl = old.dataset.liveUrl; }
      old.replaceWith(fresh);
    }
    return fresh;
  }

  function typing() {
    return typeof window.skRoundHasInput === "function" && window.skRoundHasInput();
  }

  function update(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#game-current");
    var mine = document.getElementById("game-current");
    if (!fresh || !mine || fresh.dataset.version === mine.dataset.version) { return; }
    if (typeof window.skWaiting === "function" && window.skWaiting()) {
      // Rounds of this phone's still wait in its outbox: the page is ahead of the server and
      // stays on the round being typed; the sheet shows them after the saved ones.
      mine.dataset.version = fresh.dataset.version;
      swap("game-results", holder);
      window.skShowWaiting();
      return;
    }
    var form = document.getElementById("round-form");
    var formRound = form && form.elements.number ? form.elements.number.value : null;
    var moved = formRound !== null &&
      (fresh.dataset.nextRound !== formRound || fresh.dataset.finished === "1");
    if (moved && !typing()) {
      reloadFresh(); // nothing typed: the page with the next round's form
      return;
    }
    swap("game-results", holder);
    if (!moved) {
      swap("game-current", holder);
      return;
    }
    // The round on this form was saved elsewhere: keep the form, say so (not for a round this
    // phone sent from its outbox itself).
    mine.dataset.version = fresh.dataset.version;
    var notice = document.getElementById("game-changed");
    if (notice && document.documentElement.dataset.sentRound !== formRound) {
      notice.querySelector("span").textContent = notice.dataset.text.replace("__N__", formRound);
      notice.hidden = false;
    }
  }

  function poll() {
    if (document.hidden) { window.setTimeout(poll, DELAY); return; }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(current.dataset.liveUrl, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (kept && [403, 404, 410].indexOf(response.status) !== -1) {
          reloadFresh(); // the game is gone, or this phone's right to it: the server says so
          return null;
        }
        if (response.status !== 200) { return null; }
        etag = response.headers.get("ETag");
        return response.text().then(update);
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { window.setTimeout(poll, DELAY); });
  }
  // Once the page's other scripts have run (round.js says whether the scorer is typing): a
  // reload asked for sooner would stop a kept copy half set up while the network is slow.
  if (current && current.dataset.liveUrl && window.fetch) {
    document.addEventListener("DOMContentLoaded", function () { window.setTimeout(poll, kept ? 0 : DELAY); });
  }

  // The notice's link: what was typed is compared with the round saved elsewhere, as Save
  // would (without the script, or with nothing typed, it reloads the page).
  var changed = document.getElementById("game-changed");
  var compare = changed ? changed.querySelector("a") : null;
  if (compare) {
    compare.addEventListener("click", function (event) {
      if (typeof window.skCompare !== "function") { return; }
      event.preventDefault();
      window.skCompare();
    });
  }
})();
