// Pages that refresh themselves (the share page, a club night): the element with
// data-live-url names the fragment to poll and data-live-target the part it replaces.
// Polls with If-None-Match (304 while nothing changed) and pauses while the tab is hidden.
(function () {
  "use strict";
  var hint = document.querySelector("[data-live-url]");
  if (!hint || !window.fetch) { return; }
  var url = hint.dataset.liveUrl;
  var targetId = hint.dataset.liveTarget || "live";
  var delay = parseInt(hint.dataset.liveEvery || "3000", 10);
  var etag = null;

  function poll() {
    if (document.hidden) { window.setTimeout(poll, delay); return; }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          etag = response.headers.get("ETag");
          return response.text().then(function (html) {
            var live = document.getElementById(targetId);
            var holder = document.createElement("div");
            holder.innerHTML = html;
            var fresh = holder.querySelector("#" + targetId);
            if (live && fresh && fresh.dataset.version !== live.dataset.version) {
              live.replaceWith(fresh);
            }
          });
        }
        return null;
      })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { window.setTimeout(poll, delay); });
  }
  // A copy the service worker kept (the network was slow, sw.js): the latest is asked at once.
  window.setTimeout(poll, document.documentElement.dataset.kept === "1" ? 0 : delay);
})();
