// The game page while rounds wait in this phone's outbox (offline): game.js fetches this when
// there are some. The page shows the next round to type (heading, engine, opener) and the rounds
// waiting on the sheet, after the saved ones, with a total that counts them. Its words and the
// game's plan come with the page (#record's data- attributes).
(function () {
  "use strict";
  var record = document.getElementById("record");
  var form = document.getElementById("round-form");
  var plan = record ? record.dataset : {};
  var engines = plan.engines ? plan.engines.split(",").map(function (n) { return parseInt(n, 10); }) : [];
  var players = [];
  try { players = JSON.parse(plan.players || "[]"); } catch (error) { players = []; }
  var opensTag = form ? form.querySelector("legend .tag") : null;

  function engineName(engine) { return engine + "-" + engine; }
  function setText(node, text) { if (node) { node.textContent = text; } }

  // The page as it will be once the rounds waiting are saved: round `number`'s heading, engine
  // and opener (the first player opens round 1, then clockwise; the draw game's next opener
  // depends on the hand still waiting, so it is not named).
  function showRound(form, number) {
    var engine = engines.length ? engines[number - 1] : undefined;
    var heading = document.getElementById("record-heading");
    if (engines.length && engine === undefined) {
      setText(heading, plan.allTyped);
      form.hidden = true;
      return;
    }
    form.hidden = false;
    setText(heading, plan.record.replace("__N__", number) +
      (engine !== undefined ? " · " + engineName(engine) : ""));
    var opener = engines.length && players.length ? players[(number - 1) % players.length] : null;
    var current = document.getElementById("game-current");
    if (current) {
      setText(current.querySelector("#current-heading"), engines.length
        ? plan.roundOf.replace("__N__", number) : plan.hand.replace("__N__", number));
      if (engine !== undefined) {
        setText(current.querySelector(".engine-name"), plan.engine.replace("__E__", engineName(engine)));
        var face = current.querySelector(".engine .domino, .engine .engine-face");
        if (face) {
          var drawn = document.createElement("span");
          drawn.className = "domino-face engine-face";
          drawn.setAttribute("aria-hidden", "true");
          [engine, engine].forEach(function (half) {
            var part = document.createElement("span");
            part.textContent = String(half);
            drawn.appendChild(part);
          });
          face.replaceWith(drawn);
        }
      }
      var openerLine = current.querySelector(".opener");
      if (openerLine) {
        openerLine.hidden = !opener;
        if (opener) { openerLine.textContent = plan.opens.replace("__P__", opener); }
      }
    }
    if (opensTag) {
      var space = opensTag.previousSibling;
      if (space && space.nodeType === 3 && !space.textContent.trim()) { space.remove(); }
      opensTag.remove();
      var legend = opener ? form.querySelector('fieldset.hand[data-seat="' + players.indexOf(opener) + '"] legend') : null;
      if (legend) { legend.append(" ", opensTag); }
    }
  }

  // One waiting round's line: what was typed for each seat, as the sheet shows a score (not
  // checked yet: the server is the judge once it is sent).
  function typedScores(item) {
    var values = {};
    item.fields.forEach(function (pair) { values[pair[0]] = pair[1]; });
    return players.map(function (name, seat) {
      if (values.out === String(seat)) { return { text: "0✓", value: 0 }; }
      var value = parseInt(values["pips_" + seat], 10) || 0;
      if (values["open_train_" + seat]) { value += parseInt(plan.openTrain, 10) || 0; }
      value += parseInt(values["adjust_" + seat], 10) || 0;
      return { text: String(value), value: value };
    });
  }

  function cell(tag, text, className) {
    var node = document.createElement(tag);
    node.textContent = text;
    if (className) { node.className = className; }
    return node;
  }

  // The rounds waiting, on the sheet after the saved ones, and a total that counts them.
  function showWaiting(list) {
    var table = document.querySelector("#sheet table.score-table");
    if (!table || !players.length) { return; }
    table.querySelectorAll(".waiting-row").forEach(function (row) { row.remove(); });
    var empty = document.querySelector("#sheet .empty");
    if (empty) { empty.hidden = list.length > 0; }
    if (!list.length) { return; }
    var sums = players.map(function () { return 0; });
    list.forEach(function (item) {
      var row = document.createElement("tr");
      row.className = "waiting-row";
      var number = parseInt(item.round, 10);
      var label = engines.length && engines[number - 1] !== undefined ? engineName(engines[number - 1]) : String(number);
      var head = cell("th", label + " ", "col-round");
      head.scope = "row";
      head.appendChild(cell("span", plan.waiting, "tag"));
      row.appendChild(head);
      typedScores(item).forEach(function (score, seat) {
        sums[seat] += score.value;
        row.appendChild(cell("td", score.text));
      });
      table.tBodies[0].appendChild(row);
    });
    if (!engines.length) { return; } // the draw game scores a hand from all of it: no sum here
    var saved = table.querySelectorAll("tr.totals td");
    var foot = table.tFoot || table.createTFoot();
    var total = document.createElement("tr");
    total.className = "waiting-row waiting-total";
    var head = cell("th", plan.withWaiting);
    head.scope = "row";
    total.appendChild(head);
    sums.forEach(function (sum, seat) {
      var base = saved[seat] ? parseInt(saved[seat].textContent, 10) || 0 : 0;
      total.appendChild(cell("td", String(base + sum)));
    });
    // Under the saved total, which it carries on.
    var savedRow = foot.querySelector("tr.totals");
    if (savedRow) { savedRow.after(total); } else { foot.appendChild(total); }
  }

  window.skWaitingView = { showRound: showRound, showWaiting: showWaiting };
})();
