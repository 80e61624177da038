/* A game page: check every die of a closed game in the browser, and follow an open game live.
   Everything is read from the page (data-* attributes); nothing here writes to the croupier. */
(function () {
  "use strict";

  /* A sentence of the page's language with its {placeholders} filled in, in one pass: what is put in
     is never read again (a name holding "{reason}" stays as typed) and, given by a function, never
     taken for a replacement pattern ("$&" in a name would repeat the placeholder). */
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (placeholder, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : placeholder;
    });
  }

  function verify() {
    var panel = document.getElementById("verify");
    if (!panel) return;
    var result = document.getElementById("verify-result");
    var started = performance.now();
    var Dice = window.CroupierDice;
    var forced = new URLSearchParams(location.search).get("verify") === "fallback";
    var engine = Dice.engine(forced);
    result.dataset.engine = engine.name;
    document.getElementById("verify-engine").textContent =
      engine.name === "webcrypto" ? result.dataset.textWebcrypto : result.dataset.textFallback;
    var game = panel.dataset.game;
    var used = parseInt(panel.dataset.diceUsed, 10);
    var rows = Array.prototype.slice.call(document.querySelectorAll("#moves .move"));
    var seed;
    try {
      seed = Dice.fromHex(panel.dataset.seed);
    } catch (error) {
      finish(false, false, 0);
      return;
    }

    function finish(ok, commitmentOk, count) {
      result.dataset.state = ok ? "ok" : "mismatch";
      result.dataset.ms = String(Math.round(performance.now() - started));  // the check itself
      result.dataset.at = String(Math.round(performance.now()));  // since the navigation began
      var text = ok ? result.dataset.textOk : result.dataset.textMismatch;
      if (!commitmentOk) text += " " + result.dataset.textCommitmentBad;
      result.textContent = fill(text, { count: count });
      result.classList.add(ok ? "ok" : "mismatch");
    }

    var commitmentOk = false;
    engine.digest(seed).then(function (digest) {
      commitmentOk = Dice.toHex(digest) === panel.dataset.commitment.toLowerCase();
      return engine.keyed(seed);
    }).then(function (mac) {
      var running = 0;
      var checks = rows.map(function (row) {
        var faces = row.dataset.dice ? row.dataset.dice.split(",").map(Number) : [];
        if (!faces.length) return Promise.resolve(null);
        var from = parseInt(row.dataset.diceFrom, 10);
        var inOrder = from === running;  // no gap, no overlap with the dice before
        running += faces.length;
        return Promise.all(faces.map(function (_, k) { return Dice.deriveDie(mac, game, from + k); }))
          .then(function (derived) {
            var ok = inOrder && derived.every(function (face, k) { return face === faces[k]; });
            row.dataset.verified = ok ? "ok" : "mismatch";
            row.dataset.derived = derived.join(",");
            var mark = row.querySelector(".mark");
            mark.textContent = ok ? "✓" : "✗";
            mark.className = "mark " + (ok ? "ok" : "mismatch");
            return ok;
          });
      });
      return Promise.all(checks).then(function (outcomes) {
        var movesOk = outcomes.every(function (ok) { return ok !== false; });
        finish(commitmentOk && movesOk && running === used, commitmentOk, running);
      });
    }).catch(function () {
      finish(false, commitmentOk, 0);
    });
  }

  function live() {
    var note = document.getElementById("live");
    if (!note) return;
    var cursor = note.dataset.cursor;
    var every = Math.min(parseInt(note.dataset.interval, 10) || 2500, 5000);
    var normal = note.textContent;

    function cell(tag, text, className) {
      var element = document.createElement(tag);
      element.textContent = text;
      if (className) element.className = className;
      return element;
    }

    function drawTable(seats) {
      var body = document.querySelector("#game-table tbody");
      var rows = seats.map(function (seat) {
        var row = document.createElement("tr");
        row.dataset.player = seat.name;
        row.dataset.points = String(seat.points);
        if (seat.to_act) row.className = "to-act";
        var name = cell("th", (seat.to_act ? "▶ " : "") + seat.name, "name");
        name.scope = "row";
        row.appendChild(name);
        row.appendChild(cell("td", seat.role));
        row.appendChild(cell("td", String(seat.points), "num"));
        return row;
      });
      body.replaceChildren.apply(body, rows);
    }

    function addMove(move) {
      var list = document.getElementById("moves");
      var item = document.createElement("li");
      item.className = "move";
      item.dataset.cursor = String(move.cursor);
      item.dataset.dice = move.dice.join(",");
      item.dataset.diceFrom = String(move.dice_from);
      var said = cell("div", "", "said");
      said.appendChild(cell("span", "", "mark"));
      said.appendChild(cell("span", move.actor || note.dataset.textModerator, "who"));
      if (move.text) {
        said.appendChild(document.createTextNode(": "));
        said.appendChild(cell("q", move.text));
      }
      item.appendChild(said);
      if (move.dice.length) {
        var dice = cell("div", "", "dice");
        move.dice.forEach(function (face) { dice.appendChild(cell("span", String(face), "die")); });
        item.appendChild(dice);
      }
      move.lines.forEach(function (parts) {  /* text, code, text, …, text */
        var line = cell("p", "", "line");
        parts.forEach(function (part, i) {
          line.appendChild(i % 2 ? cell("code", part) : document.createTextNode(part));
        });
        item.appendChild(line);
      });
      list.appendChild(item);
      if (move.voided) markVoided(item, move.voided);
      var empty = document.getElementById("no-moves");
      if (empty) empty.remove();
    }

    /* A moderator's undo: the row stays (its dice were rolled and are still checked), marked. */
    function markVoided(item, why) {
      if (item.dataset.voided === "true") return;
      item.dataset.voided = "true";
      item.classList.add("voided");
      var text = why.by
        ? fill(note.dataset.textVoided, { moderator: why.by, reason: why.reason })
        : note.dataset.textVoidedUnknown;
      item.appendChild(cell("p", text, "voided-note"));
    }

    function markAllVoided(voided) {
      (voided || []).forEach(function (why) {
        var item = document.querySelector('#moves .move[data-cursor="' + String(why.cursor) + '"]');
        if (item) markVoided(item, why);
      });
    }

    function poll() {
      fetch(note.dataset.url + "?after=" + encodeURIComponent(cursor), { cache: "no-store" })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then(function (data) {
          note.classList.remove("lost");
          note.textContent = normal;
          drawTable(data.table);
          data.moves.forEach(addMove);
          markAllVoided(data.voided);
          cursor = String(data.cursor);
          note.dataset.cursor = cursor;
          if (data.status !== "open") {
            location.reload();  // closed: the seed is out, and the page can check every die
            return;
          }
          setTimeout(poll, every);
        })
        .catch(function () {
          note.classList.add("lost");
          note.textContent = note.dataset.textLost;
          setTimeout(poll, every);
        });
    }

    setTimeout(poll, every);
  }

  verify();
  live();
})();
