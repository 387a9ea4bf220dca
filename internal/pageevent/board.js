"use strict";
// marslabBoard draws the board of marslab's pages (marslab view, marslab
// play) into an SVG element from the page's JSON G: the continents shaded
// with their name and bonus, the borders (those across the edge of a map
// that wraps drawn to the edge), every territory (element id "t" + index)
// in its owner's colour with its armies, the last event's territories and
// arrow, and the legend of the seats. It applies no rule: the page gives
// it the owners and armies the engine's events set. It also says an event
// in words (describe).
//
// marslabBoard(G, svg, opts) returns the board; opts.ring adds a ring to
// every territory (for the classes "can" and "sel" of a page that offers
// clicks), opts.click(t) is called on a click on territory t.
const marslabBoard = (function () {
  const COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
  const CONT = ["#f6e3a1", "#c9e7c0", "#c7d7ef", "#f1c9b8", "#e2cdea", "#d5e8e6", "#efd5d5", "#dcdcb8"];
  const SVGNS = "http://www.w3.org/2000/svg";
  // mk makes an SVG element with attributes attrs, appended to parent.
  function mk(tag, attrs, parent) {
    const el = document.createElementNS(SVGNS, tag);
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(el);
    return el;
  }
  return function (G, svg, opts) {
    opts = opts || {};
    const NT = G.territories.length;
    const T = (t) => G.territories[t].name;
    const S = (p) => "seat " + p + " (" + G.seats[p].label + ")";
    svg.setAttribute("viewBox", "0 0 " + G.width + " " + G.height);
    const defs = mk("defs", {}, svg);
    const marker = mk("marker", { id: "head", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" }, defs);
    mk("path", { d: "M0,0 L10,5 L0,10 z", fill: "#d00" }, marker);
    const gCont = mk("g", {}, svg), gBorders = mk("g", {}, svg), gArrow = mk("g", {}, svg), gTerr = mk("g", {}, svg);
    // Continents: a soft blob under each of their territories, and their name and bonus.
    G.territories.forEach((t) => mk("circle", { cx: t.x, cy: t.y, r: 34, fill: CONT[t.continent % CONT.length], opacity: 0.9 }, gCont));
    G.continents.forEach((c, i) => {
      const ts = G.territories.filter((t) => t.continent === i);
      if (ts.length === 0) return;
      const x = ts.reduce((a, t) => a + t.x, 0) / ts.length, y = Math.min(...ts.map((t) => t.y)) - 24;
      mk("text", { x: x, y: Math.max(y, 12), class: "continent" }, gCont).textContent = c.name + " +" + c.bonus;
    });
    G.borders.forEach(([a, b]) => {
      const A = G.territories[a], B = G.territories[b];
      if (G.wrap && Math.abs(A.x - B.x) > G.width / 2) {
        const [l, r] = A.x < B.x ? [A, B] : [B, A];
        mk("line", { x1: l.x, y1: l.y, x2: 0, y2: (l.y + r.y) / 2, class: "border wrap" }, gBorders);
        mk("line", { x1: r.x, y1: r.y, x2: G.width, y2: (l.y + r.y) / 2, class: "border wrap" }, gBorders);
      } else {
        mk("line", { x1: A.x, y1: A.y, x2: B.x, y2: B.y, class: "border" }, gBorders);
      }
    });
    const nodes = G.territories.map((t, i) => {
      const g = mk("g", { class: "terr", id: "t" + i }, gTerr);
      const title = mk("title", {}, g);
      const c = mk("circle", { cx: t.x, cy: t.y, r: 14, class: "owner", fill: "#fff" }, g);
      if (opts.ring) mk("circle", { cx: t.x, cy: t.y, r: 19, class: "ring" }, g);
      const n = mk("text", { x: t.x, y: t.y, class: "armies" }, g);
      mk("text", { x: t.x, y: t.y + 25, class: "name" }, g).textContent = t.name;
      if (opts.click) g.addEventListener("click", () => opts.click(i));
      return { g, c, n, title };
    });
    // arrow draws an arrow from territory f to t (none across the edge of a
    // map that wraps).
    function arrow(f, t) {
      const A = G.territories[f], B = G.territories[t];
      if (G.wrap && Math.abs(A.x - B.x) > G.width / 2) return;
      const d = Math.hypot(B.x - A.x, B.y - A.y) || 1, ux = (B.x - A.x) / d, uy = (B.y - A.y) / d;
      mk("line", { x1: A.x + ux * 16, y1: A.y + uy * 16, x2: B.x - ux * 17, y2: B.y - uy * 17, class: "arrow" }, gArrow);
    }
    // paint shows the owners and armies, marks event e's territories
    // ("from", "to") with its arrow, and clears every other mark.
    function paint(owner, armies, e) {
      for (let t = 0; t < NT; t++) {
        const n = nodes[t], o = owner[t];
        n.c.setAttribute("fill", o >= 0 ? COLORS[o] : "#fff");
        n.n.textContent = o >= 0 ? armies[t] : "";
        n.title.textContent = T(t) + (o >= 0 ? ": " + S(o) + ", " + armies[t] + " armies" : "");
        n.g.classList.remove("from", "to", "can", "sel");
      }
      gArrow.textContent = "";
      if (e && e.from >= 0) nodes[e.from].g.classList.add("from");
      if (e && e.to >= 0) nodes[e.to].g.classList.add("to");
      if (e && e.from >= 0 && e.to >= 0) arrow(e.from, e.to);
    }
    // legend fills the table body tbody with a row per seat: its colour,
    // index and label, who(p), then the columns that showLegend sets.
    function legend(tbody, who) {
      return G.seats.map((st, p) => {
        const tr = document.createElement("tr");
        tr.innerHTML = '<td><span class="swatch"></span></td><td></td><td></td><td class="n"></td><td class="n"></td><td class="n"></td><td></td>';
        tr.cells[0].firstChild.style.background = COLORS[p];
        tr.cells[1].textContent = p + " " + st.label;
        tr.cells[2].textContent = who(p);
        tbody.appendChild(tr);
        return tr;
      });
    }
    // showLegend sets in the rows of legend every seat's territories,
    // armies and cards of position s (owner, armies, cards, elimRound,
    // winner) and its status; the row of seat current is marked "cur".
    function showLegend(rows, s, current) {
      const NS = rows.length, terr = new Array(NS).fill(0), arm = new Array(NS).fill(0);
      for (let t = 0; t < NT; t++) if (s.owner[t] >= 0) { terr[s.owner[t]]++; arm[s.owner[t]] += s.armies[t]; }
      rows.forEach((tr, p) => {
        tr.cells[3].textContent = terr[p];
        tr.cells[4].textContent = arm[p];
        tr.cells[5].textContent = s.cards[p];
        const out = s.elimRound[p] >= 0;
        tr.cells[6].textContent = s.winner === p ? "winner" : out ? "out in round " + s.elimRound[p] : "";
        tr.className = out ? "out" : p === current ? "cur" : "";
      });
    }
    const SYMBOLS = ["infantry", "cavalry", "artillery", "wild"];
    // card names a card [territory, symbol] (territory -1: a wild card).
    const card = (c) => (c[0] >= 0 ? T(c[0]) + " " : "") + SYMBOLS[c[1]];
    const count = (k, one, many) => k + " " + (k === 1 ? one : many);
    // describe says event e in words; e.card is the card drawn, on a page
    // told it.
    function describe(e) {
      const p = e.player, o = e.other, from = e.from, to = e.to, a = e.armies;
      const pre = e.round > 0 ? "round " + e.round + ", " : "";
      switch (e.kind) {
        case "start": return "the game starts: " + a + " armies per seat";
        case "deal": return "deal: " + T(to) + " to " + S(p);
        case "setup_place": return "setup: " + S(p) + " places 1 army on " + T(to);
        case "turn": return pre + S(p) + " begins its turn";
        case "trade": return pre + S(p) + " trades 3 cards for " + a + " armies" + (to >= 0 ? " (+" + G.territory_bonus + " on " + T(to) + ")" : "");
        case "reinforce": return pre + S(p) + " receives " + a + " armies";
        case "place": return pre + S(p) + " places " + count(a, "army", "armies") + " on " + T(to);
        case "attack_order": return pre + S(p) + " orders an attack on " + T(to) + " (" + S(o) + ") from " + T(from) +
          (e.repeat ? ", repeated until the conquest or " + T(from) + " holds " + count(Math.max(e.stop_at || 0, 1), "army", "armies") + " or fewer" : ", one roll");
        case "roll": return pre + S(p) + " attacks " + T(to) + " from " + T(from) + ": " + e.attack.length + " dice against " + e.defend.length +
          " (" + e.attack.join("") + " vs " + e.defend.join("") + "), loses " + (e.attacker_loss || 0) + ", kills " + (e.defender_loss || 0);
        case "occupation": return pre + S(p) + " conquers " + T(to) + " from " + S(o) + ", moving " + a + " in from " + T(from);
        case "failed_occupation": return pre + S(p) + "'s attack from " + T(from) + " on " + T(to) + " ends without a conquest";
        case "defence": return pre + S(p) + " holds " + T(to) + " against " + S(o);
        case "card": return pre + S(p) + " draws a card" + (e.card ? ": " + card(e.card) : "");
        case "elimination": return pre + S(p) + " eliminates " + S(o) + (a ? " and takes " + count(a, "card", "cards") : "");
        case "move": return pre + S(p) + " moves " + a + " from " + T(from) + " to " + T(to);
        case "fault": return pre + S(p) + " faults in phase " + e.phase + ": " + e.text + (a ? " (forfeits " + a + ")" : "");
        case "end_phase": return pre + S(p) + " ends its " + e.phase + " phase";
        case "game_end": return p >= 0 ? "the game ends: " + S(p) + " wins in round " + e.round : "the game ends in a stalemate after round " + e.round;
      }
      return e.kind;
    }
    return { COLORS, mk, nodes, arrow, paint, legend, showLegend, describe, card };
  };
})();
