// The hands players sent from their own phones (the table link, issue 33), put in the scorer's
// round form: polled every 2 s with If-None-Match (304 while none came). Each sent hand fills
// that player's pips (unless the scorer typed something else there) and is marked "from Ana's
// phone" with its tiles; it stays editable, and nothing counts until the scorer saves.
(function () {
  "use strict";
  var record = document.getElementById("record");
  var form = document.getElementById("round-form");
  if (!record || !form || !record.dataset.sentUrl || !window.fetch) { return; }
  var url = record.dataset.sentUrl;
  var DELAY = 2000;
  var etag = null;

  function show(hand) {
    var block = document.getElementById("hand_" + hand.seat);
    var field = form.elements["pips_" + hand.seat];
    if (!block || !field) { return; }
    // What the scorer typed wins; a value this script put there follows the latest sent.
    if (field.value === "" || field.value === field.dataset.sent) {
      field.value = String(hand.pips);
      field.dataset.sent = String(hand.pips);
      var out = document.getElementById("out-" + hand.seat);
      if (hand.pips === 0 && out && !form.querySelector("input[name=out]:checked")) { out.checked = true; }
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
    var note = document.getElementById("sent_" + hand.seat);
    if (!note) {
      note = document.createElement("p");
      note.className = "sent-note";
      note.id = "sent_" + hand.seat;
      var main = block.querySelector(".hand-main");
      (main || block.firstChild).insertAdjacentElement("afterend", note);
    }
    note.textContent = hand.note;
  }

  function poll() {
    if (document.hidden) { window.setTimeout(poll, DELAY); return; }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) { return null; }
        etag = response.headers.get("ETag");
        return response.json().then(function (answer) {
          if (String(answer.round) !== String(form.elements.number.value)) { return; }
          answer.hands.forEach(show);
        });
      })
      .catch(function () { /* offline for a moment: next time */ })
      .then(function () { window.setTimeout(poll, DELAY); });
  }
  poll();
})();
