// The round sheet, better with JavaScript: live hand values, taken tiles, one-tap "went out".
// Everything still works without it: the server reads the same fields.
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  if (!form) { return; }
  var hands = Array.prototype.slice.call(form.querySelectorAll("fieldset.hand"));

  function modeInput(hand, value) {
    return hand.querySelector('.mode input[value="' + value + '"]');
  }

  function handValue(hand) {
    var sum = 0;
    hand.querySelectorAll(".tile-check:checked").forEach(function (box) {
      sum += parseInt(box.closest(".tile").dataset.value, 10) || 0;
    });
    return sum;
  }

  function refreshTaken() {
    var holder = {};
    hands.forEach(function (hand) {
      hand.querySelectorAll(".tile-check:checked").forEach(function (box) {
        holder[box.value] = hand;
      });
    });
    hands.forEach(function (hand) {
      hand.querySelectorAll(".tile-check").forEach(function (box) {
        var taken = holder[box.value] && holder[box.value] !== hand;
        box.disabled = !!taken;
        box.closest(".tile").classList.toggle("taken", !!taken);
      });
    });
  }

  function showValue(hand) {
    var output = hand.querySelector(".hand-value");
    var count = hand.querySelectorAll(".tile-check:checked").length;
    if (output) { output.textContent = count ? "= " + handValue(hand) : ""; }
  }

  hands.forEach(function (hand) {
    var pips = hand.querySelector("input.pips");
    hand.addEventListener("change", function (event) {
      var target = event.target;
      if (target.classList.contains("tile-check")) {
        var tiles = modeInput(hand, "tiles");
        if (tiles) { tiles.checked = true; }
        pips.value = hand.querySelectorAll(".tile-check:checked").length ? String(handValue(hand)) : "";
        showValue(hand);
        refreshTaken();
      }
    });
    pips.addEventListener("input", function () {
      var number = modeInput(hand, "pips");
      if (number) { number.checked = true; }
    });
    showValue(hand);
  });

  form.addEventListener("change", function (event) {
    if (event.target.name !== "out") { return; }
    hands.forEach(function (hand) {
      var radio = hand.querySelector('input[name="out"]');
      var out = radio && radio.checked;
      hand.classList.toggle("is-out", out);
      if (out) {
        var pips = hand.querySelector("input.pips");
        pips.value = "";
        hand.querySelectorAll(".tile-check:checked").forEach(function (box) { box.checked = false; });
        showValue(hand);
      }
    });
    refreshTaken();
  });
  refreshTaken();
})();
