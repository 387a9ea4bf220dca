"use strict";
// marslab play: the page's script. It draws the board from the JSON element
// "game" (marslabBoard, internal/pageevent/board.js), asks the server for
// the game's events (each with the change of the position it made: the
// script applies no rule), plays the bots' events out at the chosen speed,
// and on a human seat's turn offers what the server's prompt says the
// rules allow; every choice goes to the server, which checks it with the
// engine and answers, or says why it refused.
(function () {
  const G = JSON.parse(document.getElementById("game").textContent);
  const NT = G.territories.length, NS = G.seats.length;
  const TOKEN = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const T = (t) => G.territories[t].name;
  const S = (p) => "seat " + p + " (" + G.seats[p].label + ")";
  $("rules").textContent = G.rules;

  // --- the position, set from the events ---------------------------------
  const pos = { k: 0, round: 0, owner: new Array(NT).fill(-1), armies: new Array(NT).fill(0),
    cards: new Array(NS).fill(0), eliminated: [], elimRound: new Array(NS).fill(-1), winner: -1, current: -1, last: null };
  function apply(e) {
    if (e.kind === "explain") { addExplain(e); return; }
    pos.round = e.round;
    (e.set || []).forEach(([t, o, a]) => { pos.owner[t] = o; pos.armies[t] = a; });
    (e.cards || []).forEach(([p, c]) => { pos.cards[p] = c; });
    (e.out || []).forEach((p) => { pos.eliminated.push(p); pos.elimRound[p] = e.round; });
    if (e.winner !== undefined) pos.winner = e.winner;
    if (e.kind === "turn") pos.current = e.player;
    pos.k++;
    pos.last = e;
    addLog(board.describe(e));
  }

  function addLog(text) {
    const box = $("log"), div = document.createElement("div");
    div.textContent = text;
    box.appendChild(div);
    while (box.childNodes.length > 400) box.removeChild(box.firstChild);
    $("log-box").scrollTop = $("log-box").scrollHeight;
  }
  let explainTurn = "";
  function addExplain(e) {
    const box = $("explain"), head = "round " + e.round + ", " + S(e.player);
    if (head !== explainTurn) {
      explainTurn = head;
      const h = document.createElement("div");
      h.className = "turn";
      h.textContent = head;
      box.appendChild(h);
    }
    const div = document.createElement("div");
    div.textContent = e.text;
    box.appendChild(div);
    while (box.childNodes.length > 600) box.removeChild(box.firstChild);
    $("explain-box").scrollTop = $("explain-box").scrollHeight;
  }
  if (!G.explain) { $("explain-box").hidden = true; $("explain-head").hidden = true; }

  // --- the board (marslabBoard, internal/pageevent/board.js) -------------
  const board = marslabBoard(G, $("board"), { ring: true, click: (t) => clickTerritory(t) });
  const nodes = board.nodes;
  const legendRows = board.legend($("legend").tBodies[0], (p) => (G.seats[p].human ? "you" : G.seats[p].bot));

  function draw() {
    const e = pos.last;
    board.paint(pos.owner, pos.armies, e);
    // What the person may click now.
    if (shown) {
      clickable().forEach((t) => nodes[t].g.classList.add("can"));
      [sel.t, sel.from, sel.to].forEach((t) => { if (t !== null) nodes[t].g.classList.add("sel"); });
      if (sel.from !== null && sel.to !== null) board.arrow(sel.from, sel.to);
    }
    board.showLegend(legendRows, pos, pos.current);
    $("desc").textContent = e ? board.describe(e) : "the board before the game";
    $("pos").textContent = "event " + pos.k + (pos.round > 0 ? ", round " + pos.round : ", setup") + (queue.length ? " (" + queue.length + " to show)" : "");
    $("state").textContent = JSON.stringify({ event: pos.k, round: pos.round, owner: pos.owner, armies: pos.armies,
      cards: pos.cards, eliminated: pos.eliminated, winner: pos.winner, prompt: shown ? shown.id : null, kind: shown ? shown.kind : null, over: over && queue.length === 0 });
  }

  // --- talking to the server ---------------------------------------------
  let answered = 0; // the last decision this page answered whole
  let received = 0, prompt = null, over = false, result = null, closed = false, failures = 0;
  const queue = [];
  async function call(path, body) {
    const opts = { headers: { "X-Marslab-Token": TOKEN }, cache: "no-store" };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const r = await fetch(path, opts);
    let data = null;
    try { data = await r.json(); } catch (err) { data = { error: "HTTP " + r.status }; }
    return { ok: r.ok, status: r.status, data };
  }
  async function poll() {
    while (!closed) {
      let r;
      try {
        r = await call("/api/state?since=" + received + "&prompt=" + (prompt ? prompt.id : 0) + "&wait=1");
      } catch (err) {
        if (++failures > 3) { gone("the server does not answer: it has stopped (marslab play prints how to resume the game)"); return; }
        await new Promise((ok) => setTimeout(ok, 1000));
        continue;
      }
      if (!r.ok) { gone("the server refused: " + r.data.error); return; }
      failures = 0;
      const d = r.data;
      if (d.since === received) { d.events.forEach((e) => queue.push(e)); received = d.next; }
      // A reply sent before the page's last answer arrived may still hold
      // the decision answered: it is over.
      const p = d.prompt && d.prompt.id > answered ? d.prompt : null;
      if (!p || !prompt || p.id >= prompt.id) setPrompt(p);
      over = d.over; result = d.result || null;
      if (d.closed || (d.over && received === d.next)) closed = d.closed || d.over;
      try { step(); } catch (err) { console.error(err); }
    }
  }
  function gone(why) {
    closed = true;
    $("act-title").textContent = why;
    $("act-body").textContent = "";
    $("act").className = "";
  }
  async function send(body) {
    if (!shown) return;
    body.prompt = shown.id;
    $("msg").textContent = "";
    let r;
    try { r = await call("/api/act", body); } catch (err) { $("msg").textContent = "the server does not answer"; return; }
    if (!r.ok) { $("msg").textContent = r.data.error; return; }
    // The poll may have brought a later decision already: keep it.
    if (r.data.done) {
      answered = Math.max(answered, body.prompt);
      if (prompt && prompt.id === body.prompt) setPrompt(null);
    }
    else if (!prompt || r.data.prompt.id > prompt.id) setPrompt(r.data.prompt);
    step();
  }

  // --- playing out the events --------------------------------------------
  let shown = null; // the prompt on screen: only once every event is shown
  let sel = { t: null, from: null, to: null }, budget = 0;
  function setPrompt(p) {
    const same = prompt && p && prompt.kind === p.kind && prompt.seat === p.seat;
    prompt = p;
    if (!same) {
      sel = { t: null, from: null, to: null };
      if (p) $("msg").textContent = "";
    }
    if (p) keepSelection(p);
  }
  // keepSelection drops what the person selected that the decision p no
  // longer offers (a territory conquered meanwhile, a source emptied).
  function keepSelection(p) {
    const pairs = p.kind === "attack" ? p.attacks || [] : p.kind === "fortify" ? p.moves || [] : [];
    if (sel.t !== null && !(p.owned || []).includes(sel.t)) sel.t = null;
    if (sel.from !== null && !pairs.some((x) => x[0] === sel.from)) sel.from = null;
    if (sel.to !== null && !pairs.some((x) => x[0] === sel.from && x[1] === sel.to)) sel.to = null;
  }
  function human(e) { return G.seats[e.player] && G.seats[e.player].human; }
  function step() {
    const rate = +$("speed").value;
    let n = 0;
    while (queue.length > 0) {
      const e = queue[0];
      const free = e.kind === "explain" || human(e) || rate === 0 || e.kind === "deal" || e.kind === "setup_place" || e.kind === "start";
      if (!free) { if (budget < 1) break; budget--; }
      apply(queue.shift());
      n++;
    }
    // A decision is renumbered at every change: the same number is the same
    // decision, and the panel (with what the person typed) stays.
    const next = queue.length === 0 ? prompt : null;
    const id = (x) => (x ? x.id : 0);
    if (id(next) !== id(shown)) { shown = next; render(); } else if (n > 0 || over !== renderedOver) render();
    draw();
  }
  let lastTick = performance.now();
  setInterval(() => {
    const now = performance.now(), rate = +$("speed").value;
    budget = Math.min(budget + (now - lastTick) * rate / 1000, Math.max(1, rate / 10));
    lastTick = now;
    if (queue.length > 0) step();
  }, 40);
  $("skip").addEventListener("click", () => { budget = queue.length; step(); });
  $("speed").addEventListener("change", () => step());

  // --- the decision on screen ---------------------------------------------
  const attacksFrom = (t) => shown.attacks.filter((a) => a[0] === t);
  const movesFrom = (t) => shown.moves.filter((m) => m[0] === t);
  function clickable() {
    if (!shown) return [];
    switch (shown.kind) {
      case "setup": case "place": return shown.owned || [];
      case "attack": {
        const froms = [...new Set((shown.attacks || []).map((a) => a[0]))];
        return sel.from === null ? froms : froms.concat(attacksFrom(sel.from).map((a) => a[1]));
      }
      case "fortify": {
        const froms = [...new Set((shown.moves || []).map((m) => m[0]))];
        return sel.from === null ? froms : froms.concat(movesFrom(sel.from).map((m) => m[1]));
      }
    }
    return [];
  }
  function clickTerritory(t) {
    if (!shown || !clickable().includes(t)) return;
    switch (shown.kind) {
      case "setup": send({ do: "setup", territory: t }); return;
      case "place": sel.t = t; break;
      case "attack": case "fortify": {
        const pairs = shown.kind === "attack" ? shown.attacks : shown.moves;
        if (sel.from !== null && pairs.some((a) => a[0] === sel.from && a[1] === t)) sel.to = t;
        else { sel.from = t; sel.to = null; }
        break;
      }
    }
    render();
    draw();
  }
  // el makes an element of the decision panel.
  function el(tag, attrs, text, parent) {
    const x = document.createElement(tag);
    for (const k in attrs) x.setAttribute(k, attrs[k]);
    if (text !== undefined) x.textContent = text;
    if (parent) parent.appendChild(x);
    return x;
  }
  function button(id, text, parent, f) {
    const b = el("button", { id: id, type: "button" }, text, parent);
    b.addEventListener("click", f);
    return b;
  }
  function number(id, lo, hi, value, parent) {
    return el("input", { id: id, type: "number", min: lo, max: hi, value: value, size: 4 }, undefined, parent);
  }
  let renderedOver = false; // whether the panel shows the game's end
  function render() {
    renderedOver = over;
    const title = $("act-title"), body = $("act-body");
    body.textContent = "";
    $("act").className = shown ? "mine" : "";
    if (!shown) {
      if (over && queue.length === 0 && result) {
        title.textContent = result.stalemate ? "the game is over: a stalemate after round " + result.rounds
          : "the game is over: " + S(result.winner) + " wins in round " + result.rounds;
        $("msg").textContent = "";
      } else if (!closed) {
        title.textContent = queue.length > 0 ? "the bots play…" : "waiting for the game…";
      }
      return;
    }
    const p = shown, who = S(p.seat);
    const line = (text) => el("div", {}, text, body);
    if (p.hand.length > 0) line("cards of " + who + ": " + p.hand.map(board.card).join(", "));
    if (p.mission) line("mission: " + p.mission);
    switch (p.kind) {
      case "setup":
        title.textContent = who + ": place a starting army";
        line("click one of your territories");
        break;
      case "trade":
        title.textContent = who + ": trade cards" + (p.forced ? " (you must)" : "");
        p.sets.forEach((s, i) => {
          const d = el("div", {}, undefined, body);
          button("trade-" + i, "trade " + s.cards.map((k) => board.card(p.hand[k])).join(" + ") + " for " + s.value +
            (s.bonus >= 0 ? " (+" + G.territory_bonus + " on " + T(s.bonus) + ")" : ""), d, () => send({ do: "trade", set: s.cards }));
        });
        if (!p.forced) button("no-trade", "don't trade", body, () => send({ do: "no_trade" }));
        break;
      case "place": {
        title.textContent = who + ": place " + p.armies + " arm" + (p.armies === 1 ? "y" : "ies") + " (" + p.left + " left)";
        (p.placed || []).forEach(([t, k]) => line("placed " + k + " on " + T(t)));
        if (sel.t === null) line("click one of your territories");
        else {
          const d = el("div", {}, "on " + T(sel.t) + ": ", body);
          const n = number("n", 1, p.left, p.left, d);
          button("do", "place", d, () => send({ do: "place", territory: sel.t, armies: +n.value }));
        }
        if ((p.placed || []).length > 0) button("undo", "undo the placements", body, () => send({ do: "undo" }));
        break;
      }
      case "attack": {
        title.textContent = who + ": attack";
        if (sel.from === null) line("click one of your territories to attack from" + (p.attacks && p.attacks.length ? "" : " (none can attack)"));
        else if (sel.to === null) line("from " + T(sel.from) + ": click the territory to attack");
        else {
          const a = p.attacks.find((x) => x[0] === sel.from && x[1] === sel.to);
          const d = el("div", {}, T(sel.from) + " attacks " + T(sel.to) + " with ", body);
          const dice = el("select", { id: "dice" }, undefined, d);
          for (let k = a[2]; k >= 1; k--) el("option", { value: k }, k + (k === 1 ? " die" : " dice"), dice);
          const mode = el("select", { id: "mode" }, undefined, d);
          el("option", { value: "once" }, "one roll", mode);
          el("option", { value: "until" }, "until the conquest or", mode);
          const stopBox = el("span", {}, undefined, d);
          const stop = number("stop", 1, Math.max(1, pos.armies[sel.from] - 1), 1, stopBox);
          el("span", {}, " left", stopBox);
          stopBox.hidden = true;
          mode.addEventListener("change", () => { stopBox.hidden = mode.value !== "until"; });
          button("do", "attack", d, () => send({ do: "attack", from: sel.from, to: sel.to, dice: +dice.value,
            repeat: mode.value === "until", stop_at: mode.value === "until" ? +stop.value : 0 }));
        }
        button("end", "end the attacks", body, () => send({ do: "end_attack" }));
        break;
      }
      case "occupy": {
        title.textContent = who + ": move into " + T(p.to);
        const d = el("div", {}, "from " + T(p.from) + " (" + p.min + ".." + p.max + "): ", body);
        const n = number("n", p.min, p.max, p.max, d);
        button("do", "move in", d, () => send({ do: "occupy", armies: +n.value }));
        break;
      }
      case "fortify": {
        title.textContent = who + ": fortify (" + p.mode + ")";
        (p.made || []).forEach(([f, t, k]) => line("moving " + k + " from " + T(f) + " to " + T(t)));
        if (sel.from === null) line("click a territory to move from" + (p.moves && p.moves.length ? "" : " (no move is possible)"));
        else if (sel.to === null) line("from " + T(sel.from) + ": click where to move");
        else {
          const m = p.moves.find((x) => x[0] === sel.from && x[1] === sel.to);
          const d = el("div", {}, "move from " + T(sel.from) + " to " + T(sel.to) + ": ", body);
          const n = number("n", 1, m[2], m[2], d);
          button("do", "move", d, () => { const s = { do: "move", from: sel.from, to: sel.to, armies: +n.value }; sel = { t: null, from: null, to: null }; send(s); });
        }
        if ((p.made || []).length > 0) button("undo", "undo the moves", body, () => send({ do: "undo" }));
        button("end", "end the turn", body, () => send({ do: "end_fortify" }));
        break;
      }
    }
  }

  // The page's interface for tests and the console.
  window.marslabPlay = { state: () => JSON.parse($("state").textContent), prompt: () => shown, send };
  draw();
  render();
  poll();
})();
