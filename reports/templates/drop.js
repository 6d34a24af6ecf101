(function () {
  "use strict";
  var zone = document.getElementById("drop");
  var input = document.getElementById("files");
  var chosen = document.getElementById("chosen");
  function show() {
    chosen.textContent = Array.prototype.map.call(input.files, function (f) { return f.name; }).join(", ");
  }
  input.addEventListener("change", show);
  ["dragenter", "dragover"].forEach(function (type) {
    zone.addEventListener(type, function (e) { e.preventDefault(); zone.classList.add("over"); });
  });
  zone.addEventListener("dragleave", function () { zone.classList.remove("over"); });
  zone.addEventListener("drop", function (e) {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer && e.dataTransfer.files.length) {
      input.files = e.dataTransfer.files;
      show();
    }
  });
}());
