// A club night's page refreshes itself: poll its live part with If-None-Match every 5 seconds
// (304 while no table moved), as the share page does.
(function () {
  "use strict";
  var hint = document.getElementById("night-hint");
  if (!hint || !window.fetch) { return; }
  var url = hint.dataset.liveUrl;
  var etag = null;
  var delay = 5000;

  function poll() {
    if (document.hidden) { window.setTimeout(poll, delay); return; }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          etag = response.headers.get("ETag");
          return response.text().then(function (html) {
            var live = document.getElementById("night-live");
            var holder = document.createElement("div");
            holder.innerHTML = html;
            var fresh = holder.querySelector("#night-live");
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
