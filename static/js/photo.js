// A hand from a photo (loaded by round.js when a photo is first chosen): the photo is scaled to 1600 px as a JPEG here, read by the server, and
// shown with each tile it found outlined; the scorer changes, removes or adds tiles (two taps,
// as in the tile picker), then "Use these tiles" ticks them in the hand, where round.js and the
// server check them like any tiles. Nothing is kept: the photo stays on the phone.
(function () {
  var form = document.getElementById("round-form");
  var block = document.getElementById("photo-block");
  if (!form || !block || !window.skPhotoQueue) { return; }
  var panel = null;
  var words = {};
  var LONGEST = 1600;
  var SVG = "http://www.w3.org/2000/svg";
  var state = { hand: null, tiles: [], width: 0, height: 0, editing: null, first: null };

  function $(selector) { return panel.querySelector(selector); }
  function say(text, key, value) { return (text || "").replace("%(" + key + ")s", value); }
  function name(tile) { return Math.max(tile[0], tile[1]) + "-" + Math.min(tile[0], tile[1]); }
  function status(text) { $(".photo-status").textContent = text; }
  // The hand's tile boxes (game.js makes a hand's grid when it is first needed).
  function boxes(hand) {
    return window.skTileGrid ? window.skTileGrid(hand) : hand.querySelectorAll(".tile-check");
  }

  // The highest end on offer in this hand's grid (the game's set).
  function setMax(hand) {
    var max = 0;
    boxes(hand).forEach(function (box) {
      box.value.split("-").forEach(function (n) { max = Math.max(max, parseInt(n, 10) || 0); });
    });
    return max || 12;
  }

  // The file as a JPEG at most LONGEST px on its longest side, and a data: URL to show it
  // (the page's policy allows data: images only). A photo the browser cannot draw (HEIC on
  // most phones) goes as it is, shown by its outlines alone.
  function scaled(file) {
    return new Promise(function (resolve) {
      var reader = new FileReader();
      reader.onerror = function () { resolve({ blob: file, url: null }); };
      reader.onload = function () {
        var img = new Image();
        img.onerror = function () { resolve({ blob: file, url: null }); };
        img.onload = function () {
          var ratio = Math.min(1, LONGEST / Math.max(img.naturalWidth, img.naturalHeight));
          var canvas = document.createElement("canvas");
          canvas.width = Math.round(img.naturalWidth * ratio);
          canvas.height = Math.round(img.naturalHeight * ratio);
          canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
          var url = canvas.toDataURL("image/jpeg", 0.85);
          canvas.toBlob(function (blob) { resolve({ blob: blob || file, url: url }); }, "image/jpeg", 0.85);
        };
        img.src = reader.result;
      };
      reader.readAsDataURL(file);
    });
  }

  function open(hand) {
    state.hand = hand;
    hand.appendChild(panel);
    panel.hidden = false;
    $(".photo-frame").hidden = true;
    $(".photo-tiles").textContent = "";
    $(".photo-advice").textContent = "";
    note("");
    state.tiles = [];
    closePad();
    total();
  }

  function send(hand, file) {
    open(hand);
    status(words.reading);
    scaled(file).then(function (photo) {
      if (photo.blob.size > parseInt(words.maxBytes, 10)) { status(words.tooLarge); return null; }
      var body = new FormData();
      body.append("csrf_token", form.elements.csrf_token.value);
      body.append("photo", photo.blob, "photo.jpg");
      return fetch(block.dataset.url, {
        method: "POST", body: body, credentials: "same-origin",
        headers: { Accept: "application/json" }
      }).then(function (response) {
        return response.json().then(function (json) { return { ok: response.ok, json: json, url: photo.url }; });
      });
    }).then(function (result) {
      if (!result) { return; }
      if (!result.ok) { status(result.json.error || words.failed); return; }
      show(result.json, result.url);
    }).catch(function () { status(words.failed); });
  }

  function show(reading, url) {
    // Numbered left to right across the photo, as the eye reads them.
    function across(t) { return t.corners.reduce(function (sum, p) { return sum + p[0]; }, 0); }
    state.tiles = reading.tiles.map(function (t) {
      return { pips: t.pips, corners: t.corners, check: t.check };
    }).sort(function (a, b) { return across(a) - across(b); });
    state.width = reading.width;
    state.height = reading.height;
    var frame = $(".photo-frame");
    if (url) { $(".photo-image").src = url; }
    frame.hidden = !url;
    var advice = $(".photo-advice");
    reading.advice.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      advice.appendChild(li);
    });
    status(state.tiles.length ? say(words.found, "n", state.tiles.length) : words.none);
    draw();
  }

  // The outlines on the photo and the list of tiles, from state.tiles.
  function draw() {
    var svg = $(".photo-marks");
    svg.textContent = "";
    svg.setAttribute("viewBox", "0 0 " + (state.width || 1) + " " + (state.height || 1));
    var list = $(".photo-tiles");
    list.textContent = "";
    state.tiles.forEach(function (tile, index) {
      if (tile.corners) {
        var shape = document.createElementNS(SVG, "polygon");
        shape.setAttribute("points", tile.corners.map(function (p) { return p.join(","); }).join(" "));
        shape.setAttribute("class", tile.check ? "mark is-check" : "mark");
        svg.appendChild(shape);
        // A number inside the tile's own outline, the list below saying what each number
        // holds: values drawn on a photo of many small tiles would run into each other.
        var label = document.createElementNS(SVG, "text");
        var cx = 0, cy = 0;
        tile.corners.forEach(function (p) { cx += p[0] / 4; cy += p[1] / 4; });
        var c = tile.corners;
        var side = Math.min(Math.hypot(c[1][0] - c[0][0], c[1][1] - c[0][1]),
                            Math.hypot(c[2][0] - c[1][0], c[2][1] - c[1][1]));
        var longest = Math.max(state.width, state.height);
        // As big as fits across the tile's short side, at most ~17 px on a phone (the photo is
        // shown ~300 px wide) and at least ~12 px, on a dark disc that reads on any tile.
        var size = Math.max(longest / 24, Math.min(longest / 17, side * 0.55));
        var disc = document.createElementNS(SVG, "circle");
        disc.setAttribute("cx", cx);
        disc.setAttribute("cy", cy);
        disc.setAttribute("r", Math.round(size * 0.72));
        disc.setAttribute("class", tile.check ? "mark-disc is-check" : "mark-disc");
        svg.appendChild(disc);
        label.setAttribute("x", cx);
        label.setAttribute("y", cy);
        label.setAttribute("font-size", Math.round(size));
        label.setAttribute("class", tile.check ? "mark-label is-check" : "mark-label");
        label.textContent = String(index + 1);
        svg.appendChild(label);
      }
      var li = document.createElement("li");
      li.className = "photo-tile" + (tile.check ? " is-check" : "") + (tile.out ? " is-out" : "");
      var change = document.createElement("button");
      change.type = "button";
      change.className = "photo-change";
      // The number ties the tile to its outline on the photo, which only the eye sees.
      if (tile.corners) {
        var number = document.createElement("span");
        number.className = "photo-number";
        number.setAttribute("aria-hidden", "true");
        number.textContent = String(index + 1);
        li.appendChild(number);
      }
      change.textContent = name(tile.pips) + (tile.check ? " ?" : "");
      var said = say(tile.check ? words.check : words.tile, "tile", name(tile.pips));
      change.setAttribute("aria-label", tile.out ? said + " (" + words.out + ")" : said);
      change.addEventListener("click", function () { openPad(index); });
      var remove = document.createElement("button");
      remove.type = "button";
      remove.className = "photo-remove";
      remove.textContent = "×";
      remove.setAttribute("aria-label", say(words.remove, "tile", name(tile.pips)));
      remove.addEventListener("click", function () {
        state.tiles.splice(index, 1);
        note("");
        closePad();
        draw();
      });
      li.appendChild(change);
      li.appendChild(remove);
      list.appendChild(li);
    });
    total();
  }

  // The total of the tiles the hand gets: a tile left out (not in play) counts nothing.
  function total() {
    $(".photo-sum").textContent = String(state.tiles.reduce(function (sum, t) {
      return t.out ? sum : sum + t.pips[0] + t.pips[1];
    }, 0));
  }

  function note(text) {
    var where = $(".photo-note");
    where.textContent = text || "";
    where.hidden = !text;
  }

  // Two taps, as in the tile picker: one end, then the other. `index` null adds a tile.
  function openPad(index) {
    state.editing = index;
    state.first = null;
    var pad = $(".photo-pad");
    pad.textContent = "";
    for (var n = 0; n <= setMax(state.hand); n++) {
      var key = document.createElement("button");
      key.type = "button";
      key.textContent = String(n);
      key.dataset.n = String(n);
      key.addEventListener("click", tap);
      pad.appendChild(key);
    }
    pad.hidden = false;
    prompt();
    pad.querySelector("button").focus();
  }

  function prompt() {
    var text = state.first === null ? words.first : say(words.second, "n", state.first);
    $(".photo-prompt").textContent = text;
    $(".photo-prompt").hidden = false;
  }

  function tap(event) {
    var n = parseInt(event.currentTarget.dataset.n, 10);
    if (state.first === null) { state.first = n; prompt(); return; }
    var pips = [state.first, n];
    if (state.editing === null) {
      state.tiles.push({ pips: pips, corners: null, check: false });
    } else {
      state.tiles[state.editing].pips = pips;
      state.tiles[state.editing].check = false;
      state.tiles[state.editing].out = false;
    }
    closePad();
    draw();
  }

  function closePad() {
    state.first = null;
    state.editing = null;
    $(".photo-pad").hidden = true;
    $(".photo-prompt").hidden = true;
  }

  // Tick the tiles in the hand (and only them), switch the hand to tiles, let round.js count.
  // A tile not in play this round (the round's engine) cannot be ticked: it is marked left out
  // in the list, the total becomes what the hand gets, and the words saying so appear beside
  // the buttons the scorer just tapped.
  function use() {
    var hand = state.hand;
    var ticks = boxes(hand);
    var offered = {};
    ticks.forEach(function (box) { offered[box.value] = true; });
    var missing = [];
    var told = true;  // every tile left out was already shown so: a second tap goes on
    state.tiles.forEach(function (t) {
      var out = !offered[name(t.pips)];
      if (out && !t.out) { told = false; }
      t.out = out;
      if (out) { missing.push(name(t.pips)); }
    });
    var wanted = state.tiles.filter(function (t) { return !t.out; }).map(function (t) { return name(t.pips); });
    ticks.forEach(function (box) { box.checked = wanted.indexOf(box.value) !== -1; });
    var mode = hand.querySelector('.mode input[value="tiles"]');
    if (mode) { mode.checked = true; }
    var picker = hand.querySelector(".picker");
    if (picker) { picker.hidden = false; }
    var toggle = hand.querySelector(".tiles-toggle");
    if (toggle) { toggle.setAttribute("aria-expanded", "true"); }
    var details = hand.querySelector("details.tile-picker");
    if (details) { details.open = true; }
    if (ticks.length) { ticks[0].dispatchEvent(new Event("change", { bubbles: true })); }
    if (missing.length && !told) {
      draw();
      note(say(words.missing, "tiles", missing.join(", ")));
      $(".photo-note").scrollIntoView({ block: "nearest" });
      return;
    }
    close();
    var pips = hand.querySelector("input.pips");
    if (pips) { pips.focus(); }
  }

  function close() {
    panel.hidden = true;
    block.parentNode.appendChild(panel);
    state.hand = null;
  }

  // round.js queues each chosen photo (the first one before this script had loaded);
  // the panel and its words come from the server once.
  function take() {
    var queue = window.skPhotoQueue;
    while (queue.length) { var next = queue.shift(); send(next.hand, next.file); }
  }
  fetch(block.dataset.url + "/panel", { credentials: "same-origin" }).then(function (response) {
    return response.text();
  }).then(function (html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    panel = holder.querySelector("#photo-confirm");
    words = panel.dataset;
    block.parentNode.appendChild(panel);
    $(".photo-add").addEventListener("click", function () { openPad(null); });
    $(".photo-use").addEventListener("click", use);
    $(".photo-cancel").addEventListener("click", close);
    window.skPhoto = { take: take };
    take();
  }).catch(function () { window.skPhotoQueue.length = 0; });
})();
