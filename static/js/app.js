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
