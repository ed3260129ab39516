// A camera button on each hand (the block's template), light until used: a chosen photo loads
// photo.js and its stylesheet, which read it; the game page carries nothing more of the reader.
(function () {
  var form = document.getElementById("round-form");
  var block = document.getElementById("photo-block");
  var button = document.getElementById("photo-button");
  if (!form || !block || !button || !window.fetch || !window.FormData || !window.FileReader) { return; }
  block.hidden = true;  // its no-script form
  var queue = window.skPhotoQueue = [];
  var loading = false;
  function add(tag, attribute, url) {
    var node = document.createElement(tag);
    node[attribute] = url;
    if (tag === "link") { node.rel = "stylesheet"; }
    document.head.appendChild(node);
  }
  form.querySelectorAll("fieldset.hand").forEach(function (hand) {
    var label = button.content.firstElementChild.cloneNode(true);
    var input = label.querySelector("input");
    hand.querySelector(".hand-main").appendChild(label);
    // A label opens its hidden file input; from a keyboard, Enter or Space does.
    label.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); input.click(); }
    });
    input.addEventListener("change", function (event) {
      event.stopPropagation();  // not a change of the round: drafts and round.js ignore it
      if (!input.files || !input.files[0]) { return; }
      queue.push({ hand: hand, file: input.files[0] });
      input.value = "";
      if (window.skPhoto) { window.skPhoto.take(); return; }
      if (!loading) {
        loading = true;
        add("link", "href", block.dataset.style);
        add("script", "src", block.dataset.script);
      }
    });
  });
})();
