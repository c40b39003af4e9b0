// Scorekeeper: small enhancements on top of pages that work without JavaScript.
(function () {
  "use strict";

  // Times come from the server in UTC; show them in the phone's own time.
  function localTimes(root) {
    root.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when.getTime())) {
        el.textContent = when.toLocaleString([], {
          day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
        });
      }
    });
  }

  // "Copy" buttons next to share links (only where the clipboard can be written).
  function copyButtons(root) {
    if (!navigator.clipboard || !window.isSecureContext) return;
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function enhance(root) {
    localTimes(root);
    copyButtons(root);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    navigator.clipboard.writeText(button.getAttribute("data-copy")).then(function () {
      button.textContent = "Copied";
    });
  });
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.detail.elt); });
})();
