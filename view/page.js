"use strict";
// marslab view: the page's script. It reads the game from the JSON element
// "game", whose every event carries the change of the position it made (the
// engine's, from marslab's replay of the log: the script applies no rule),
// draws the position (marslabBoard, internal/pageevent/board.js), and writes
// it as JSON into the element "state".
(function () {
  const G = JSON.parse(document.getElementById("game").textContent);
  const NT = G.territories.length, NS = G.seats.length, EV = G.events;
  const $ = (id) => document.getElementById(id);

  // --- the position -------------------------------------------------------
  function fresh() {
    return { k: 0, round: 0, owner: new Array(NT).fill(-1), armies: new Array(NT).fill(0),
      cards: new Array(NS).fill(0), eliminated: [], elimRound: new Array(NS).fill(-1), winner: -1 };
  }
  // apply sets in s the values that event e changed (see view.event).
  function apply(s, e) {
    s.round = e.round;
    (e.set || []).forEach(([t, o, a]) => { s.owner[t] = o; s.armies[t] = a; });
    (e.cards || []).forEach(([p, c]) => { s.cards[p] = c; });
    (e.out || []).forEach((p) => { s.eliminated.push(p); s.elimRound[p] = e.round; });
    if (e.winner !== undefined) s.winner = e.winner;
    s.k++;
  }
  function stateJSON(s) {
    return JSON.stringify({ event: s.k, round: s.round, owner: s.owner, armies: s.armies, cards: s.cards,
      eliminated: s.eliminated, winner: s.winner });
  }

  // --- what the whole game gives: turns, rounds, the chart ----------------
  const turnStarts = [], roundStarts = [], rounds = [];
  (function () {
    const s = fresh();
    let last = -1;
    const snap = () => {
      const terr = new Array(NS).fill(0), arm = new Array(NS).fill(0);
      for (let t = 0; t < NT; t++) if (s.owner[t] >= 0) { terr[s.owner[t]]++; arm[s.owner[t]] += s.armies[t]; }
      return { terr, arm };
    };
    EV.forEach((e, i) => {
      if (e.kind === "turn") {
        turnStarts.push(i + 1);
        if (e.round !== last) {
          if (last < 0) rounds.push(Object.assign({ round: 0 }, snap()));
          else rounds.push(Object.assign({ round: last }, snap()));
          roundStarts.push(i + 1);
          last = e.round;
        }
      }
      apply(s, e);
    });
    rounds.push(Object.assign({ round: Math.max(last, 0) }, snap()));
  })();

  // --- words --------------------------------------------------------------
  const T = (t) => G.territories[t].name;
  const S = (p) => "seat " + p + " (" + G.seats[p].label + ")";
  // describe says event e in words (the board's words), or the board
  // before the game.
  function describe(e) {
    if (!e) return "the board before the game: " + G.seats.length + " seats, rules " + G.rules + ", map " + G.map;
    return board.describe(e);
  }

  // --- the board and the legend -----------------------------------------
  const board = marslabBoard(G, $("board"));
  const COLORS = board.COLORS, mk = board.mk;
  const legendRows = board.legend($("legend").tBodies[0], (p) => G.seats[p].bot);
  const contRows = G.continents.map((c) => {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td class=n></td><td></td>";
    tr.cells[0].textContent = c.name;
    tr.cells[1].textContent = "+" + c.bonus;
    $("continents").tBodies[0].appendChild(tr);
    return tr;
  });

  // --- the charts ---------------------------------------------------------
  function chart(el, key, label) {
    const W = 500, H = 200, L = 38, R = 8, Tp = 16, B = 22;
    el.setAttribute("viewBox", "0 0 " + W + " " + H);
    let max = 1;
    rounds.forEach((r) => r[key].forEach((v) => { max = Math.max(max, v); }));
    const nr = Math.max(rounds.length - 1, 1);
    const X = (i) => L + (W - L - R) * i / nr, Y = (v) => H - B - (H - B - Tp) * v / max;
    mk("text", { x: L, y: 11 }, el).textContent = label + " per seat, by round (end of round)";
    mk("line", { x1: L, y1: Y(0), x2: W - R, y2: Y(0), stroke: "#999" }, el);
    mk("line", { x1: L, y1: Y(0), x2: L, y2: Tp, stroke: "#999" }, el);
    mk("text", { x: 2, y: Y(max) + 4 }, el).textContent = max;
    mk("text", { x: 2, y: Y(0) }, el).textContent = "0";
    mk("text", { x: L, y: H - 6 }, el).textContent = "round " + rounds[0].round;
    mk("text", { x: W - R - 50, y: H - 6 }, el).textContent = "round " + rounds[rounds.length - 1].round;
    for (let p = 0; p < NS; p++) {
      const pts = rounds.map((r, i) => X(i) + "," + Y(r[key][p])).join(" ");
      mk("polyline", { points: pts, fill: "none", stroke: COLORS[p], "stroke-width": 1.8 }, el);
    }
    return { X, line: mk("line", { x1: L, y1: Tp, x2: L, y2: Y(0), stroke: "#000", "stroke-dasharray": "3 2" }, el) };
  }
  const cursors = [chart($("chart-terr"), "terr", "territories"), chart($("chart-armies"), "arm", "armies")];

  // --- the explanations ---------------------------------------------------
  const hasExplain = G.explain.length > 0;
  if (!hasExplain) $("explain-box").hidden = true;
  function showExplain(k) {
    if (!hasExplain) return;
    // The player-turn of position k: from the last turn start <= k to the next.
    let lo = 0, hi = EV.length + 1;
    for (const ts of turnStarts) { if (ts <= k) lo = ts; else { hi = ts; break; } }
    const lines = G.explain.filter((x) => x.at >= lo && x.at < hi);
    const box = $("explain");
    box.textContent = "";
    if (lines.length === 0) { box.textContent = "(no explanation in this player-turn)"; return; }
    let now = -1;
    lines.forEach((x) => { if (x.at <= k) now = x.at; });
    lines.forEach((x) => {
      const div = document.createElement("div");
      div.textContent = x.text;
      if (x.at > k) div.className = "later"; else if (x.at === now) div.className = "now";
      box.appendChild(div);
    });
    const cur = box.querySelector(".now");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  // --- drawing a position -------------------------------------------------
  let S0 = fresh();
  function draw() {
    const s = S0, k = s.k, e = k > 0 ? EV[k - 1] : null;
    board.paint(s.owner, s.armies, e);
    let current = -1;
    for (let i = k - 1; i >= 0; i--) if (EV[i].kind === "turn") { current = EV[i].player; break; }
    board.showLegend(legendRows, s, current);
    contRows.forEach((tr, c) => {
      let holder = -2;
      G.territories.forEach((t, i) => {
        if (t.continent !== c) return;
        const o = s.owner[i];
        holder = holder === -2 ? o : holder === o ? holder : -1;
      });
      tr.cells[2].textContent = holder >= 0 ? S(holder) : "";
      tr.cells[2].style.color = holder >= 0 ? COLORS[holder] : "";
    });
    // The chart's cursor: at the start of the current round, at the last
    // point once the game is over.
    let ri = 0;
    for (let i = 0; i < roundStarts.length; i++) if (roundStarts[i] <= k) ri = i;
    if (k === EV.length) ri = rounds.length - 1;
    cursors.forEach((c) => { const px = c.X(ri); c.line.setAttribute("x1", px); c.line.setAttribute("x2", px); });
    $("desc").textContent = describe(e);
    $("slider").value = k;
    $("pos").textContent = "event " + k + " of " + EV.length + (s.round > 0 ? ", round " + s.round : ", setup");
    showExplain(k);
    $("state").textContent = stateJSON(s);
  }

  // seek sets the position to k events applied (0..EV.length).
  function seek(k) {
    k = Math.max(0, Math.min(EV.length, k | 0));
    if (k < S0.k) S0 = fresh();
    while (S0.k < k) apply(S0, EV[S0.k]);
    draw();
    return S0.k;
  }
  const next = (list, k) => { for (const x of list) if (x > k) return x; return EV.length; };
  const prev = (list, k) => { let r = 0; for (const x of list) if (x < k) r = x; return r; };

  // --- controls -----------------------------------------------------------
  let timer = null;
  function speed() { return +$("speed").value; }
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      if (S0.k >= EV.length) seek(0);
      const rate = speed(), perTick = Math.max(1, Math.round(rate / 50)), ms = Math.max(20, 1000 / rate);
      timer = setInterval(() => { seek(S0.k + perTick); if (S0.k >= EV.length) play(false); }, ms);
    }
    $("b-play").textContent = timer ? "pause" : "play";
  }
  const actions = {
    start: () => seek(0), end: () => seek(EV.length),
    back: () => seek(S0.k - 1), fwd: () => seek(S0.k + 1),
    turnBack: () => seek(prev(turnStarts, S0.k)), turnFwd: () => seek(next(turnStarts, S0.k)),
    roundBack: () => seek(prev(roundStarts, S0.k)), roundFwd: () => seek(next(roundStarts, S0.k)),
  };
  const bind = (id, f) => $(id).addEventListener("click", () => { play(false); f(); });
  bind("b-start", actions.start); bind("b-end", actions.end);
  bind("b-back", actions.back); bind("b-fwd", actions.fwd);
  bind("b-turn-back", actions.turnBack); bind("b-turn-fwd", actions.turnFwd);
  bind("b-round-back", actions.roundBack); bind("b-round-fwd", actions.roundFwd);
  $("b-play").addEventListener("click", () => play(!timer));
  $("speed").addEventListener("change", () => { if (timer) play(true); });
  const slider = $("slider");
  slider.max = EV.length;
  slider.addEventListener("input", () => { play(false); seek(+slider.value); });
  document.addEventListener("keydown", (ev) => {
    if (ev.target && ev.target.tagName === "SELECT") return;
    const sh = ev.shiftKey;
    const f = {
      ArrowLeft: sh ? actions.turnBack : actions.back, ArrowRight: sh ? actions.turnFwd : actions.fwd,
      ArrowUp: sh ? actions.roundBack : null, ArrowDown: sh ? actions.roundFwd : null,
      PageUp: actions.roundBack, PageDown: actions.roundFwd, Home: actions.start, End: actions.end,
    }[ev.key];
    if (f) { ev.preventDefault(); play(false); f(); return; }
    if (ev.key === " ") { ev.preventDefault(); play(!timer); return; }
    if (ev.key === "+" || ev.key === "-") {
      const sel = $("speed"), i = sel.selectedIndex + (ev.key === "+" ? 1 : -1);
      if (i >= 0 && i < sel.options.length) { sel.selectedIndex = i; if (timer) play(true); }
    }
  });

  // The page's interface for tests and for the console.
  window.marslabView = { seek, actions, play, events: EV.length, turns: turnStarts.slice(), rounds: roundStarts.slice(),
    state: () => JSON.parse(stateJSON(S0)) };
  seek(0);
})();
