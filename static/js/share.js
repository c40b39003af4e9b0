// The picture of the game for the group chat (templates/games/_picture.html): the link
// downloads the PNG; where the phone's share sheet takes files, a tap opens it with the
// picture instead. The picture is fetched as the finger comes down, so the share sheet
// opens within the tap itself (some phones allow it no later). Loaded by the pages that
// offer the picture, not app.js: the game page a phone loads for every game stays small.
// A page may load it more than once (an htmx swap brings its tag again): it acts once.
(function () {
  "use strict";

  if (window.scorekeeperSharePicture) return;
  window.scorekeeperSharePicture = true;
  var SELECTOR = "a[data-share-picture]";

  function sharesFiles() {
    if (!navigator.canShare || !navigator.share || typeof File !== "function") return false;
    try {
      return navigator.canShare({ files: [new File([""], "picture.png", { type: "image/png" })] });
    } catch (error) {
      return false;
    }
  }

  // The page's look, or for "auto" the phone's: the picture is asked for in the same.
  function prepare(root) {
    var dark = !document.documentElement.dataset.theme &&
      window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    var share = sharesFiles();
    root.querySelectorAll(SELECTOR).forEach(function (link) {
      if (link.dataset.share) return;
      if (dark) link.href += (link.href.indexOf("?") < 0 ? "?" : "&") + "look=dark";
      if (share) {
        link.textContent = link.dataset.shareLabel;
        link.dataset.share = "ready";
      } else {
        link.dataset.share = "download";
      }
    });
  }

  function picture(link) {
    if (!link.picture) {
      link.picture = fetch(link.href, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.blob();
      }).then(function (blob) {
        var file = new File([blob], link.getAttribute("download"), { type: "image/png" });
        link.file = file;
        return file;
      });
      link.picture.catch(function () { link.picture = null; });
    }
    return link.picture;
  }

  function download(link) {
    var save = document.createElement("a");
    save.href = link.href;
    save.download = link.getAttribute("download");
    document.body.appendChild(save);
    save.click();
    save.remove();
  }

  function share(link, file) {
    link.dataset.share = "sharing";
    var data = { files: [file] };
    var shared = navigator.canShare(data) ? navigator.share(data) : Promise.reject(new Error("files"));
    shared.then(function () {
      link.dataset.share = "shared";
    }, function (error) {
      // Closed without choosing: nothing to do. Refused: the picture downloads instead.
      if (error && error.name === "AbortError") {
        link.dataset.share = "ready";
        return;
      }
      link.dataset.share = "download";
      download(link);
    });
  }

  document.addEventListener("pointerdown", function (event) {
    var link = event.target.closest(SELECTOR + '[data-share="ready"]');
    if (link) picture(link).catch(function () {});
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest(SELECTOR + '[data-share="ready"]');
    if (!link) return;
    event.preventDefault();
    if (link.file) {
      share(link, link.file);
      return;
    }
    picture(link).then(function (file) { share(link, file); }, function () {
      link.dataset.share = "download";
      download(link);
    });
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { prepare(document); });
  } else {
    prepare(document);
  }
  document.addEventListener("htmx:load", function (event) { prepare(event.detail.elt); });
})();
