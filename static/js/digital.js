// Digital play: a poll answered 304 ("nothing new") leaves the page as it is.
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 304) {
      event.detail.shouldSwap = false;
    }
  });
})();
