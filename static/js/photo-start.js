// A camera button on each hand, light until used: a chosen photo loads photo.js (and its
// stylesheet), which reads it; the game page carries nothing more of the photo reader.
(function () {
  var form = document.getElementById("round-form");
  var block = document.getElementById("photo-block");
  if (!form || !block || !window.fetch || !window.FormData || !window.FileReader) { return; }
  block.hidden = true;  // its no-script form; each hand gets a camera button instead
  var queue = window.skPhotoQueue = [];
  var loading = false;
  var SVG = "http://www.w3.org/2000/svg";
  var icon = "M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z";

  function load() {
    loading = true;
    var style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = block.dataset.style;
    document.head.appendChild(style);
    var script = document.createElement("script");
    script.src = block.dataset.script;
    document.head.appendChild(script);
  }

  function camera() {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("width", "24");
    svg.setAttribute("height", "24");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    var body = document.createElementNS(SVG, "path");
    body.setAttribute("d", icon);
    var lens = document.createElementNS(SVG, "circle");
    lens.setAttribute("cx", "12");
    lens.setAttribute("cy", "13");
    lens.setAttribute("r", "3.5");
    [body, lens].forEach(function (part) {
      part.setAttribute("fill", "none");
      part.setAttribute("stroke", "currentColor");
      part.setAttribute("stroke-width", "2");
      svg.appendChild(part);
    });
    return svg;
  }

  form.querySelectorAll("fieldset.hand").forEach(function (hand) {
    // A label opens its file input even when the input is hidden; the label itself takes the
    // focus and the keys, so the button works from a keyboard too.
    var label = document.createElement("label");
    label.className = "tiles-toggle photo-label";
    label.tabIndex = 0;
    label.setAttribute("role", "button");
    var input = document.createElement("input");
    input.type = "file";
    input.accept = "image/*";
    input.setAttribute("capture", "environment");
    input.className = "photo-input";
    input.hidden = true;
    var word = document.createElement("span");
    word.className = "visually-hidden";
    word.textContent = block.dataset.word;
    label.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); input.click(); }
    });
    label.appendChild(input);
    label.appendChild(camera());
    label.appendChild(word);
    hand.querySelector(".hand-main").appendChild(label);
    input.addEventListener("change", function (event) {
      event.stopPropagation();  // not a change of the round: drafts and round.js ignore it
      if (!input.files || !input.files[0]) { return; }
      queue.push({ hand: hand, file: input.files[0] });
      input.value = "";
      if (window.skPhoto) { window.skPhoto.take(); } else if (!loading) { load(); }
    });
  });
})();
