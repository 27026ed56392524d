// folio console: follows a running job. Every second it fetches the job's timeline (a fragment
// the server renders) and swaps it in, until the fragment says the job is done.
(function () {
  "use strict";
  var box = document.getElementById("timeline");
  if (!box || box.getAttribute("data-done") === "true") { return; }
  var url = box.getAttribute("data-src");
  function tick() {
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("timeline");
        if (!fresh) { return; }
        box.replaceWith(fresh);
        box = fresh;
        if (fresh.getAttribute("data-done") === "true") {
          var live = document.getElementById("live");
          if (live) { live.hidden = true; }
          // the page's other parts (status, run again) follow the finished job
          window.location.reload();
          return;
        }
        window.setTimeout(tick, 1000);
      })
      .catch(function () { window.setTimeout(tick, 3000); });
  }
  window.setTimeout(tick, 1000);
})();
