// The game page: keeps itself current while another phone records rounds, and the Share
// button. Polls the page's live part with If-None-Match (304 while nothing changed, paused
// while the tab is hidden); a round typed here is never replaced: the page says another phone
// saved it and offers a reload instead.
(function () {
  "use strict";
  var current = document.getElementById("game-current");
  var DELAY = 3000;
  var etag = null;

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
    var form = document.getElementById("round-form");
    var formRound = form && form.elements.number ? form.elements.number.value : null;
    var moved = formRound !== null &&
      (fresh.dataset.nextRound !== formRound || fresh.dataset.finished === "1");
    if (moved && !typing()) {
      window.location.reload(); // nothing typed: the page with the next round's form
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
        if (response.status !== 200) { return null; }
        etag = response.headers.get("ETag");
        return response.text().then(update);
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { window.setTimeout(poll, DELAY); });
  }
  if (current && current.dataset.liveUrl && window.fetch) { window.setTimeout(poll, DELAY); }

  // Share: the phone's own share sheet where there is one, else copy the link.
  var button = document.getElementById("share-button");
  var status = document.getElementById("share-status");
  if (!button) { return; }
  button.hidden = false;

  function copied(ok) {
    status.textContent = ok ? button.dataset.copied : button.dataset.failed;
  }

  function copyBySelection() {
    var link = document.getElementById("view-link");
    var range = document.createRange();
    range.selectNodeContents(link);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
    copied(ok);
  }

  button.addEventListener("click", function () {
    var url = button.dataset.url;
    if (navigator.share) {
      navigator.share({ title: button.dataset.title, url: url }).catch(function () {
        /* the sheet was closed: nothing to say */
      });
    } else if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(function () { copied(true); }, copyBySelection);
    } else {
      copyBySelection();
    }
  });
})();
