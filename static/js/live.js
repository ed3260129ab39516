// The share page refreshes itself: poll the live part with If-None-Match every few seconds.
(function () {
  "use strict";
  var hint = document.getElementById("live-hint");
  if (!hint || !window.fetch) { return; }
  var url = hint.dataset.liveUrl;
  var etag = null;
  var delay = 3000;

  function poll() {
    if (document.hidden) { window.setTimeout(poll, delay); return; }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          etag = response.headers.get("ETag");
          return response.text().then(function (html) {
            var live = document.getElementById("live");
            var holder = document.createElement("div");
            holder.innerHTML = html;
            var fresh = holder.querySelector("#live");
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
  window.setTimeout(poll, delay);
})();
