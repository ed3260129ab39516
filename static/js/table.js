// "My hand" on the table link (issue 33): the player's name is remembered on this phone, ticked
// tiles are added up, a photo is read by the server's reader and its tiles ticked here for the
// player to check, and Send goes by fetch. Offline, the hand waits in this phone's outbox (as
// game.js keeps a scorer's rounds: localStorage, sent when the network is back, a fresh form
// token if the old one expired) and is sent once. Without the script the form works as it is.
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form || !window.fetch || !window.FormData) { return; }
  var OUTBOX = "sk:hands";
  var RETRY_MS = 10000;
  var words = form.dataset;
  var token = words.token;
  var select = form.elements.player;
  var pips = form.elements.pips;
  var statusLine = document.getElementById("hand-status");
  var picker = document.getElementById("hand-tiles");
  var storage = null;
  try { storage = window.localStorage; storage.getItem(OUTBOX); } catch (error) { storage = null; }

  function say(text) { statusLine.textContent = text || ""; }
  function read(key, fallback) {
    if (!storage) { return fallback; }
    try { return JSON.parse(storage.getItem(key)) || fallback; } catch (error) { return fallback; }
  }
  function write(key, value) {
    if (!storage) { return; }
    try { storage.setItem(key, JSON.stringify(value)); } catch (error) { /* storage full */ }
  }

  // The name, once per phone and game.
  var nameKey = "sk:table-player:" + token;
  if (!select.value && read(nameKey, "")) {
    var remembered = read(nameKey, "");
    Array.prototype.forEach.call(select.options, function (option) {
      if (option.value === remembered) { select.value = remembered; }
    });
  }
  select.addEventListener("change", function () { write(nameKey, select.value); });

  function mode(value) { form.querySelector("input[name=mode][value=" + value + "]").checked = true; }
  function checks() { return form.querySelectorAll(".tile-check"); }
  function total() {
    var sum = 0, count = 0;
    checks().forEach(function (box) {
      if (box.checked) { count += 1; sum += parseInt(box.parentNode.dataset.value, 10) || 0; }
    });
    picker.querySelector(".hand-value").textContent = count ? "= " + sum : "";
  }
  picker.addEventListener("change", function () { mode("tiles"); total(); });
  pips.addEventListener("input", function () { mode("pips"); });
  total();

  // A photo: read by the same reader as the scorer's; its tiles ticked for the player to check.
  var photo = form.elements.photo;
  function readPhoto() {
    if (!photo.files || !photo.files[0]) { return; }
    say(words.reading);
    var body = new FormData();
    body.append("csrf_token", form.elements.csrf_token.value);
    body.append("photo", photo.files[0], "photo.jpg");
    fetch(words.photoUrl, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { Accept: "application/json" }
    }).then(function (response) {
      return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; });
    }).then(function (result) {
      if (!result.ok) { say(result.answer.error || words.failed); return; }
      var found = result.answer.tiles.map(function (tile) {
        return Math.max(tile.pips[0], tile.pips[1]) + "-" + Math.min(tile.pips[0], tile.pips[1]);
      });
      checks().forEach(function (box) { box.checked = found.indexOf(box.value) >= 0; });
      picker.open = true;
      mode("tiles");
      total();
      say(found.length ? words.read.replace("%(tiles)s", found.join(", ")) : words.none);
    }).catch(function () { say(words.failed); });
  }
  photo.addEventListener("change", readPhoto);
  document.getElementById("read-photo").addEventListener("click", function (event) {
    event.preventDefault();
    readPhoto();
  });

  // Sending, and the outbox ---------------------------------------------------------------
  function fields() {
    var list = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "photo") { list.push([name, String(value)]); }
    });
    return list;
  }
  function post(list) {
    var body = new URLSearchParams();
    list.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetch(form.action, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { Accept: "application/json" }
    });
  }
  // A form token made now (a hand kept offline may wait longer than its token lives).
  function withFreshToken(list) {
    return fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var match = /name="csrf_token" value="([^"]+)"/.exec(html);
        if (!match) { return list; }
        return list.map(function (pair) { return pair[0] === "csrf_token" ? [pair[0], match[1]] : pair; });
      });
  }
  function answered(response) {
    return response.json().then(function (answer) {
      if (response.status === 201) { say(answer.message); return; }
      if (answer.errors) {
        var messages = [];
        Object.keys(answer.errors).forEach(function (field) { messages = messages.concat(answer.errors[field]); });
        say(messages.join(" "));
        return;
      }
      say(answer.error || words.failed);
    }).catch(function () { say(words.failed); });
  }
  function send(list) {
    return post(list).then(function (response) {
      if (response.status !== 400) { return response; }
      return withFreshToken(list).then(post);
    });
  }
  function queue(list) {
    var waiting = read(OUTBOX, []).filter(function (item) { return item.url !== form.action; });
    waiting.push({ url: form.action, fields: list });
    write(OUTBOX, waiting);
    say(words.queued);
  }
  var flushing = false;
  function flush() {
    if (flushing || navigator.onLine === false) { return; }
    var mine = read(OUTBOX, []).filter(function (item) { return item.url === form.action; });
    if (!mine.length) { return; }
    flushing = true;
    send(mine[0].fields).then(function (response) {
      // Answered (sent, or refused with a reason): out of the outbox, whatever the answer.
      write(OUTBOX, read(OUTBOX, []).filter(function (item) { return item.url !== form.action; }));
      return answered(response);
    }).catch(function () { /* still offline: next time */ })
      .then(function () { flushing = false; });
  }

  form.addEventListener("submit", function (event) {
    if (event.submitter && event.submitter.id === "read-photo") { return; }
    event.preventDefault();
    if (!select.value) { say(words.choose); select.focus(); return; }
    var list = fields();
    if (navigator.onLine === false) { queue(list); return; }
    say(words.sending);
    send(list).then(answered).catch(function () { queue(list); });
  });
  window.addEventListener("online", flush);
  window.setInterval(flush, RETRY_MS);
  flush();
})();
