// The setup screen, better with JavaScript: add rows in place, suggest the set and hand size,
// and show only the options of the chosen game.
(function () {
  "use strict";
  var form = document.querySelector(".setup-form");
  if (!form) { return; }
  var rows = document.getElementById("player-rows");
  var addButton = document.getElementById("add-player");
  var suggestion = document.getElementById("suggestion");
  var table = JSON.parse(form.dataset.recommend || "[]");
  var template = suggestion ? suggestion.dataset.template : "";
  var setSelect = form.querySelector('select[name="set_size"]');
  var setTouched = form.dataset.keepSet === "true"; // a club game keeps the club's set
  var maxRows = parseInt(form.dataset.maxPlayers || "14", 10);

  function names() {
    return Array.prototype.filter.call(rows.querySelectorAll("input"), function (input) {
      return input.value.trim() !== "";
    }).length;
  }

  function gameType() {
    var checked = form.querySelector('input[name="game_type"]:checked');
    return checked ? checked.value : "mexican_train";
  }

  function suggest() {
    var count = names();
    var isDraw = gameType() === "draw";
    form.classList.toggle("is-draw", isDraw);
    if (!suggestion || isDraw || count < 2) { if (suggestion) { suggestion.textContent = ""; } return; }
    table.forEach(function (row) {
      if (count >= row[0] && count <= row[1]) {
        suggestion.textContent = template.replace("{n}", count).replace("{set}", row[2]).replace("{hand}", row[3]);
        if (setSelect && !setTouched) { setSelect.value = String(row[2]); }
      }
    });
  }

  if (addButton) {
    addButton.addEventListener("click", function (event) {
      var items = rows.querySelectorAll("li");
      if (items.length >= maxRows) { return; }
      event.preventDefault();
      var last = items[items.length - 1];
      var copy = last.cloneNode(true);
      var index = items.length;
      copy.classList.remove("field-error");
      var error = copy.querySelector(".error");
      if (error) { error.remove(); }
      var input = copy.querySelector("input");
      var label = copy.querySelector("label");
      input.name = "players-" + index;
      input.id = "players-" + index;
      input.value = "";
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      input.placeholder = (form.dataset.playerLabel || "Player {n}").replace("{n}", index + 1);
      if (label) { label.htmlFor = input.id; label.textContent = input.placeholder; }
      rows.appendChild(copy);
      input.focus();
    });
  }
  // Enter in a name: on to the next empty name, or start the game (the form's first button is
  // "Add a player", which Enter would otherwise press).
  rows.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.tagName !== "INPUT" || event.isComposing) { return; }
    event.preventDefault();
    var inputs = Array.prototype.slice.call(rows.querySelectorAll("input"));
    var next = inputs.slice(inputs.indexOf(event.target) + 1).filter(function (input) {
      return input.value.trim() === "";
    })[0];
    if (next) {
      next.focus();
    } else {
      form.requestSubmit(form.querySelector('[name="submit"]'));
    }
  });
  // A choice in the set menu is the table's: it sticks. The menu's "input" event comes before
  // its "change" and bubbles to the form's suggest(), so mark the menu touched on both, here
  // on the menu itself (its listeners run before the form's).
  if (setSelect) {
    ["input", "change"].forEach(function (type) {
      setSelect.addEventListener(type, function () { setTouched = true; });
    });
  }
  form.addEventListener("input", suggest);
  form.addEventListener("change", suggest);
  suggest();
})();
