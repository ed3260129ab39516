// The round sheet, better with JavaScript: live hand values, a two-tap tile picker (one end,
// then the other; tiles held elsewhere are gone), one-tap "went out", and the focus where the
// scorer looks next. Everything still works without it: the server reads the same fields (the
// picker only ticks the hidden tile boxes) and stays the judge of every tile.
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  if (!form) { return; }
  form.classList.add("js-round");
  var words = form.dataset;
  var hands = Array.prototype.slice.call(form.querySelectorAll("fieldset.hand"));
  var first = {};  // per seat: the end picked first, while its partner is awaited

  function say(text, key, value) { return (text || "").replace("%(" + key + ")s", value); }
  function seatOf(hand) { return hand.dataset.seat; }
  function modeInput(hand, value) { return hand.querySelector('.mode input[value="' + value + '"]'); }
  function picker(hand) { return hand.querySelector(".picker"); }
  // The hand's tile boxes, its grid copied from the page's one template first if it has none
  // yet (game.js: grids are made when a hand needs them; the correction page has them all).
  function grid(hand) {
    return window.skTileGrid ? window.skTileGrid(hand) : hand.querySelectorAll(".tile-check");
  }
  function toggle(hand) { return hand.querySelector(".tiles-toggle"); }
  function ticked(hand) { return Array.prototype.slice.call(hand.querySelectorAll(".tile-check:checked")); }
  function inTiles(hand) { var input = modeInput(hand, "tiles"); return !!(input && input.checked); }
  function ends(text) { return text.split("-").map(function (n) { return parseInt(n, 10); }); }

  function handValue(hand) {
    return ticked(hand).reduce(function (sum, box) {
      return sum + (parseInt(box.closest(".tile").dataset.value, 10) || 0);
    }, 0);
  }

  // Which hand holds each tile: only hands counted by tiles hold any.
  function holders() {
    var holder = {};
    hands.forEach(function (hand) {
      if (!inTiles(hand)) { return; }
      ticked(hand).forEach(function (box) { holder[box.value] = hand; });
    });
    return holder;
  }

  // The no-script grid stays in step (it is what is sent): tiles held elsewhere are disabled.
  function refreshGrid(holder) {
    hands.forEach(function (hand) {
      hand.querySelectorAll(".tile-check").forEach(function (box) {
        var taken = holder[box.value] && holder[box.value] !== hand;
        box.disabled = !!taken;
        box.closest(".tile").classList.toggle("taken", !!taken);
      });
    });
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function domino(a, b) {
    var face = element("span", "domino-face");
    face.setAttribute("aria-hidden", "true");
    face.appendChild(element("span", "", String(a)));
    face.appendChild(element("span", "", String(b)));
    return face;
  }

  function button(className) {
    var node = element("button", className);
    node.type = "button";
    return node;
  }

  // A button showing a domino, named by a sentence ("Add the 6-4") that only screen readers
  // read: the name comes from the button's own content (no aria-label to disagree with it).
  function tileButton(className, sentence, a, b) {
    var node = button(className);
    node.appendChild(element("span", "visually-hidden", say(sentence, "tile", a + "-" + b)));
    node.appendChild(domino(a, b));
    return node;
  }

  // One hand's picker: the tiles chosen (tap one to take it back), then either the numbers
  // 0..n (the first end) or the partners of the end picked, as dominoes, and Back.
  function draw(hand, holder, focusIndex) {
    var panel = picker(hand);
    if (panel.hidden) { return; }
    var seat = seatOf(hand);
    var free = {};
    var top = 0;
    grid(hand).forEach(function (box) {
      var pair = ends(box.value);
      top = Math.max(top, pair[0]);
      if (!holder[box.value]) { free[box.value] = box; }
    });
    panel.textContent = "";

    var chosen = element("div", "picker-chosen");
    ticked(hand).forEach(function (box) {
      var pair = ends(box.value);
      var take = tileButton("picker-tile is-chosen", words.remove, pair[0], pair[1]);
      take.addEventListener("click", function () {
        box.checked = false;
        changed(hand, null);
        told();
      });
      chosen.appendChild(take);
    });
    var count = ticked(hand).length;
    var value = element("output", "hand-value", count ? "= " + handValue(hand) : "");
    value.setAttribute("aria-live", "polite");
    chosen.appendChild(value);
    var end = first[seat];
    chosen.appendChild(element("span", "picker-prompt", end === undefined ? words.first : say(words.second, "n", end)));
    panel.appendChild(chosen);

    var pad = element("div", top >= 10 ? "picker-pad pad-wide" : "picker-pad");
    var n;
    for (n = 0; n <= top; n += 1) {
      if (end === undefined) {
        pad.appendChild(numberButton(hand, n, free));
      } else {
        pad.appendChild(partnerButton(hand, end, n, free));
      }
    }
    if (end !== undefined) {
      var back = button("pad-back");
      back.textContent = words.back;
      back.addEventListener("click", function () { delete first[seat]; changed(hand, 0); });
      pad.appendChild(back);
    }
    panel.appendChild(pad);
    if (focusIndex !== null && focusIndex !== undefined) {
      var target = pad.children[focusIndex];
      if (!target || target.tagName !== "BUTTON" || target.disabled) {
        target = pad.querySelector("button:not([disabled])");
      }
      if (target) { target.focus({ preventScroll: true }); }
    }
  }

  // A tile ticked or taken back, or the hand switched to tiles, by the picker (not by the
  // scorer's own tick, which the browser announces): told as a change of the form, so the
  // draft (game.js) keeps it.
  function told() { form.dispatchEvent(new Event("change", { bubbles: true })); }

  function tileName(a, b) { return Math.max(a, b) + "-" + Math.min(a, b); }

  function numberButton(hand, n, free) {
    var node = button("pad-number");
    node.textContent = String(n);
    var any = Object.keys(free).some(function (name) { return ends(name).indexOf(n) !== -1; });
    node.disabled = !any;
    node.addEventListener("click", function () {
      first[seatOf(hand)] = n;
      changed(hand, n);
    });
    return node;
  }

  function partnerButton(hand, end, n, free) {
    var box = free[tileName(end, n)];
    if (!box) {
      var gap = element("span", "pad-gap");
      gap.setAttribute("aria-hidden", "true");
      return gap;
    }
    var node = tileButton("picker-tile", words.add, end, n);
    node.addEventListener("click", function () {
      box.checked = true;
      delete first[seatOf(hand)];
      changed(hand, end);
      told();
    });
    return node;
  }

  function setMode(hand, tiles) {
    var input = modeInput(hand, tiles ? "tiles" : "pips");
    if (input) { input.checked = true; }
    if (tiles) { grid(hand); }
    picker(hand).hidden = !tiles;
    toggle(hand).setAttribute("aria-expanded", tiles ? "true" : "false");
    if (!tiles) { delete first[seatOf(hand)]; }
  }

  // After any change: the hand's pips show its tiles' value, and every picker is redrawn (a
  // tile taken here is gone from the others).
  function changed(hand, focusIndex) {
    if (hand && inTiles(hand)) {
      var pips = hand.querySelector("input.pips");
      pips.value = ticked(hand).length ? String(handValue(hand)) : "";
    }
    var holder = holders();
    refreshGrid(holder);
    hands.forEach(function (other) { draw(other, holder, other === hand ? focusIndex : null); });
  }

  // A hand nothing was entered for yet (no pips, no tile, not out).
  function empty(hand) {
    var out = hand.querySelector('input[name="out"]');
    return !hand.querySelector("input.pips").value && !ticked(hand).length && !(out && out.checked);
  }

  // How this phone counted hands in its last round (localStorage): a game's first round opens
  // the pickers by themselves when the phone's table counts tiles (later rounds follow the
  // game's own last round, data-open-tiles).
  var COUNT = "sk:count-by";
  function remembered() {
    try { return window.localStorage.getItem(COUNT); } catch (error) { return null; }
  }
  form.addEventListener("submit", function () {
    try {
      window.localStorage.setItem(COUNT, hands.some(inTiles) ? "tiles" : "pips");
    } catch (error) { /* storage refused: the pickers wait for a tap */ }
  });
  var firstRound = form.elements.number && form.elements.number.value === "1";
  var countTiles = words.openTiles === "1" || (firstRound && remembered() === "tiles");

  hands.forEach(function (hand) {
    var pips = hand.querySelector("input.pips");
    var tilesButton = toggle(hand);
    tilesButton.hidden = false;
    tilesButton.addEventListener("click", function () {
      var opening = picker(hand).hidden;
      setMode(hand, opening);
      // The table counts tiles: every other hand still empty opens its picker too, so each
      // hand's first tap is already a tile's.
      if (opening) { hands.forEach(function (other) { if (empty(other)) { setMode(other, true); } }); }
      changed(hand, null);
      told();
    });
    pips.addEventListener("input", function () {
      if (inTiles(hand)) { setMode(hand, false); changed(hand, null); }
    });
    hand.addEventListener("change", function (event) {
      if (event.target.classList.contains("tile-check")) { changed(hand, null); }
    });
    var out = hand.querySelector('input[name="out"]');
    // A table that counted tiles last round counts them again: the pickers open by themselves.
    var again = countTiles && !pips.value;
    setMode(hand, (inTiles(hand) || again) && !(out && out.checked));
  });

  form.addEventListener("change", function (event) {
    if (event.target.name !== "out") { return; }
    hands.forEach(function (hand) {
      var radio = hand.querySelector('input[name="out"]');
      var out = !!(radio && radio.checked);
      hand.classList.toggle("is-out", out);
      if (out) {
        hand.querySelector("input.pips").value = "";
        ticked(hand).forEach(function (box) { box.checked = false; });
        setMode(hand, false);
      }
    });
    changed(null, null);
  });
  hands.forEach(function (hand) {
    var radio = hand.querySelector('input[name="out"]');
    hand.classList.toggle("is-out", !!(radio && radio.checked));
  });
  changed(null, null);

  // The form emptied for the next round (game.js, after a round went to the outbox): nobody
  // is out yet, and the pickers open again if this table counts tiles.
  form.addEventListener("reset", function () {
    window.setTimeout(function () {
      Object.keys(first).forEach(function (seat) { delete first[seat]; });
      hands.forEach(function (hand) {
        hand.classList.remove("is-out");
        setMode(hand, remembered() === "tiles");
      });
      changed(null, null);
    }, 0);
  });

  // Where the scorer looks next: a refused round's summary, or after a save the next round's
  // first field (the page opened at the form).
  // Now, and again once the page has loaded if the browser's own jump to the #record anchor
  // took the focus away (images still loading must not keep the field from the scorer).
  var opened = false;
  function focusNext() {
    var summary = document.getElementById("round-errors") || document.getElementById("round-warnings");
    if (summary) {
      summary.focus();
    } else if (window.location.hash === "#record") {
      // After a save through game.js (its outbox) the page was reloaded without restoring the old scroll
      // position: open it at the form, as the browser does after a plain POST.
      if (!opened) {
        opened = true;
        var record = document.getElementById("record");
        if (record && window.scrollY === 0) { record.scrollIntoView({ block: "start" }); }
      }
      var firstPips = form.querySelector("input.pips");
      if (firstPips) { firstPips.focus({ preventScroll: true }); }
    }
  }
  focusNext();
  window.addEventListener("load", function () {
    window.setTimeout(function () {
      if (document.activeElement === document.body) { focusNext(); }
    }, 0);
  });
})();

// A camera button on each hand, light until used: the first photo chosen loads photo.js and
// photos.css (their URLs on the no-script block, which this hides), which read it and show the
// confirm panel; the game page carries nothing more of the reader.
(function () {
  var form = document.getElementById("round-form");
  var block = document.getElementById("photo-block");
  if (!form || !block || !window.fetch || !window.FormData || !window.FileReader) { return; }
  block.hidden = true;
  var queue = window.skPhotoQueue = [];
  var word = document.getElementById("photo-file").getAttribute("aria-label");
  function load() {
    var style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = block.dataset.style;
    var script = document.createElement("script");
    script.src = block.dataset.script;
    document.head.append(style, script);
    load = function () {};
  }
  var rows = [];
  form.querySelectorAll("fieldset.hand").forEach(function (hand) {
    // A real button (a label given role="button" is not allowed: axe's aria-allowed-role) that
    // opens the hidden file input beside it, by tap, Enter or Space alike.
    var label = document.createElement("button");
    label.type = "button";
    label.className = "photo-label";
    label.innerHTML = '<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2">' +
      '<path d="M3 7h4l2-3h6l2 3h4v13H3z"/><circle cx="12" cy="13" r="3.5"/></svg><span class="visually-hidden"></span>';
    label.lastChild.textContent = word;
    var input = document.createElement("input");
    input.type = "file";
    input.accept = "image/*";
    input.setAttribute("capture", "environment");
    input.className = "photo-input";
    input.hidden = true;
    input.tabIndex = -1;
    var row = hand.querySelector(".hand-main");
    row.append(label, input);
    rows.push({ row: row, label: label, out: row.querySelector(".out-toggle") });
    label.addEventListener("click", function () { input.click(); });
    input.addEventListener("change", function (event) {
      event.stopPropagation();  // not a change of the round: drafts and the sums above ignore it
      if (!input.files || !input.files[0]) { return; }
      queue.push({ hand: hand, file: input.files[0] });
      input.value = "";
      if (window.skPhoto) { window.skPhoto.take(); } else { load(); }
    });
  });
  // No room beside a long "went out" (French, Spanish at 360 px): a row of its own, named.
  // Every width is read first, then the rows are moved (one layout for the eight hands).
  rows.filter(function (item) {
    return item.out && item.out.scrollWidth > item.out.clientWidth + 1;
  }).forEach(function (item) {
    item.row.after(item.label);
    item.label.classList.add("is-below");
    item.label.lastChild.className = "";
  });
})();
