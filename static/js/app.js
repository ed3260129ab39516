// Every page: register the service worker (static/js/sw.js, served at /sw.js), which lets a
// phone install the app and open the last game pages it saw without a network.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      /* private mode or storage refused: the app works as a plain site */
    });
  });
})();

// A club's tabs scroll sideways in one row: the current one is brought into view.
(function () {
  "use strict";
  var current = document.querySelector(".club-nav [aria-current]");
  if (current) { current.parentNode.scrollLeft = current.offsetLeft - current.parentNode.offsetLeft - 16; }
})();

// The Share button (the scorer's game page and the share page): the phone's own share sheet
// where there is one, else copy the link (the page's #view-link, or the button's own words).
(function () {
  "use strict";
  var button = document.getElementById("share-button");
  var status = document.getElementById("share-status");
  if (!button || !status) { return; }
  button.hidden = false;

  function copied(ok) {
    status.textContent = ok ? button.dataset.copied : button.dataset.failed;
  }

  function copyBySelection() {
    var link = document.getElementById("view-link") || status;
    if (link === status) { status.textContent = button.dataset.url; }
    var range = document.createRange();
    range.selectNodeContents(link);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
    if (link !== status || ok) { copied(ok); }
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
