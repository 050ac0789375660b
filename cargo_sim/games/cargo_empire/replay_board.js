// Cargo Empire's board on the replay page (core/replay_template.html inlines it): the map
// (cities placed from the graph, ports marked, rail segments and sea links; each city's
// level, cubes, demand spaces and posts), the round (turn order, public city cards, the
// decks), the development tracks with the vehicles on them, and each seat's hand, city
// cards, missions and points. A public page: the secret city cards and the missions are
// hidden until the game reveals them.
const PHASE_WORDS = ["order bonus", "set-up missions", "first start city", "second start city",
                     "turn", "transport steps", "over"];
const CUBE_CSS = {brown: "#795548", white: "#f5f5f5", grey: "#9e9e9e", gray: "#9e9e9e", orange: "#ef6c00",
                  red: "#c62828", blue: "#1565c0", green: "#2e7d32", yellow: "#f9a825", black: "#212121",
                  purple: "#6a1b9a"};
const SPARE_CSS = ["#00838f", "#6d4c41", "#ad1457", "#283593"];
const LEVEL_FILL = ["#ffffff", "#fff8e1", "#ffe082", "#c62828"];
const VEHICLE_LETTER = ["T", "R", "S"];          // truck, rail (train), ship
const SVG_NS = "http://www.w3.org/2000/svg";

function colourCss(G, c) { return CUBE_CSS[G.colours[c]] || SPARE_CSS[c % SPARE_CSS.length]; }
function svg(tag, attrs, ...kids) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const kid of kids) node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return node;
}
function cityName(G, c) {
  return c >= 0 && c < G.cities.length ? G.cities[c].name : (c === -1 ? "blank card" : "no card");
}
function cube(G, c, label) { return chip(label || G.colours[c], colourCss(G, c)); }

// ---- the map ------------------------------------------------------------------------------
function mapBox(G, s) {
  const W = 900, H = 620, PAD = 60;
  const at = G.cities.map(c => [PAD + c.x * (W - 2 * PAD), PAD + c.y * (H - 2 * PAD)]);
  const pic = svg("svg", {viewBox: "0 0 " + W + " " + H, width: "100%", role: "img",
                          "aria-label": "the map", style: "max-height:640px;background:#eef4f7"});
  for (const [a, b] of G.sea) {
    pic.append(svg("line", {x1: at[a][0], y1: at[a][1], x2: at[b][0], y2: at[b][1],
                            stroke: "#64b5f6", "stroke-width": 1, "stroke-dasharray": "4 5", opacity: 0.45}));
  }
  for (const [a, b] of G.land) {
    pic.append(svg("line", {x1: at[a][0], y1: at[a][1], x2: at[b][0], y2: at[b][1],
                            stroke: "#5d4037", "stroke-width": 3}));
  }
  const publicCards = new Set(s.public.filter(c => c >= 0));
  G.cities.forEach((city, c) => {
    const st = s.cities[c], [x, y] = at[c];
    const g = svg("g", {class: "city"});
    g.append(svg("title", {}, city.name + ": LV" + st.lv + (city.port ? ", port" : "")));
    if (publicCards.has(c)) {
      g.append(svg("circle", {cx: x, cy: y, r: 21, fill: "none", stroke: "#f9a825", "stroke-width": 4}));
    }
    g.append(svg("circle", {cx: x, cy: y, r: 15, fill: LEVEL_FILL[st.lv] || "#fff",
                            stroke: city.port ? "#1565c0" : "#333", "stroke-width": city.port ? 4 : 2}));
    g.append(svg("text", {x: x, y: y + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700,
                          fill: st.lv === 3 ? "#fff" : "#222"}, "L" + st.lv));
    g.append(svg("text", {x: x, y: y - 21, "text-anchor": "middle", "font-size": 12},
                 city.name + (city.port ? " \u2693" : "")));
    // production cubes (left) and the two demand spaces (right), then the posts below
    if (st.side.length) {
      for (let k = 0; k < G.production; k++) {
        g.append(svg("rect", {x: x - 30 - 9 * k, y: y - 4, width: 8, height: 8,
                              fill: k < st.cubes ? colourCss(G, st.side[0]) : "none",
                              stroke: colourCss(G, st.side[0]), "stroke-width": 1.5}));
      }
      st.demand.forEach((seat, k) => {
        const col = colourCss(G, st.side[1 + k]);
        g.append(svg("rect", {x: x + 19 + 11 * k, y: y - 5, width: 10, height: 10,
                              fill: seat >= 0 ? SEAT_COLOURS[seat % SEAT_COLOURS.length] : "#fff",
                              stroke: col, "stroke-width": 3}));
      });
    }
    let dx = 0;
    st.posts.forEach((k, seat) => {
      for (let i = 0; i < k; i++, dx += 8) {
        g.append(svg("circle", {cx: x - 12 + dx, cy: y + 22, r: 3.5,
                                fill: SEAT_COLOURS[seat % SEAT_COLOURS.length]}));
      }
    });
    pic.append(g);
  });
  const key = el("div", {className: "muted"},
    "Levels L1-L3 (LV3: red); a blue ring \u2693 is a port; brown lines: rail segments; dashed blue: sea links; " +
    "a yellow ring: a public city card. Left of a city its production cubes, right its two demand spaces " +
    "(the colour wanted; filled with the seat's colour when taken), below the posts of each seat.");
  return el("section", {className: "wide"}, el("h2", {}, "The map"), pic, key, cityTable(G, s));
}

function cityTable(G, s) {
  const rows = G.cities.map((city, c) => {
    const st = s.cities[c];
    const posts = el("span");
    st.posts.forEach((k, seat) => { if (k > 0) posts.append(mark(seat, k + " \u00d7 seat " + seat)); });
    const produce = st.side.length ? (st.cubes ? cube(G, st.side[0], st.cubes + " " + G.colours[st.side[0]])
                                                : none("no cube")) : none("LV3");
    const demand = st.side.length ? el("span", {}, ...st.demand.map((seat, k) =>
      seat >= 0 ? mark(seat, G.colours[st.side[1 + k]] + ": seat " + seat) : cube(G, st.side[1 + k]))) : none("-");
    return el("tr", {className: "city-row"}, el("td", {}, city.name + (city.port ? " (port)" : "")),
              el("td", {className: "num"}, "LV" + st.lv), el("td", {}, produce), el("td", {}, demand),
              el("td", {}, posts.childNodes.length ? posts : none()));
  });
  return el("details", {}, el("summary", {}, "the cities as a table"),
    el("table", {}, el("thead", {}, el("tr", {}, ...["city", "level", "cubes", "demand spaces", "posts"]
      .map(h => el("th", {}, h)))), el("tbody", {}, ...rows)));
}

// ---- the round ----------------------------------------------------------------------------
function roundBox(G, s) {
  const turn = s.phase === 4 || s.phase === 5 ? "turn " + Math.min(s.turn_in_round + 1, G.turns_per_round) +
    " of " + G.turns_per_round : PHASE_WORDS[s.phase] || String(s.phase);
  const rows = [
    ["round", s.turn === 0 ? "set-up" : s.turn + " of " + G.turns + ", " + turn],
    ["turn order", el("span", {}, ...s.order.map((q, i) => mark(q, (i + 1) + ". seat " + q +
                                                           (G.order_bonus[i] ? " (" + G.order_bonus[i] + ")" : ""))))],
    ["public city cards", el("span", {}, ...s.public.map(c => c >= 0 ? chip(cityName(G, c), "#f9a825")
                                                          : none(cityName(G, c))))],
    ["city deck", plural(s.deck, "card")],
    ["mission deck", plural(s.missions_left, "card")],
  ];
  return section("The round", el("table", {}, el("tbody", {}, ...rows.map(([k, v]) =>
    el("tr", {}, el("th", {}, k), el("td", {}, v))))));
}

// ---- the development tracks ---------------------------------------------------------------
function tokens(s, where) {
  const out = [];
  s.players.forEach((pl, seat) => pl.track.forEach((t, v) => {
    if (where(t)) out.push(mark(seat, VEHICLE_LETTER[v] + seat));
  }));
  return out;
}
function cell(text, toks, style) {
  return el("td", {style: "border:1px solid #ddd;min-width:48px;font-size:12px;" + (style || "")},
            el("div", {className: "muted"}, text), ...toks);
}
function devBox(G, s) {
  const n = G.dev.length, rows = [];
  G.dev.forEach((tile, k) => {
    const branch = k === 0 ? "start" : "branch: " + G.dev[k - 1].fork;
    const here = tokens(s, t => t[0] === k && t[1] < 0);
    rows.push(el("tr", {}, el("th", {}, "tile " + (k + 1) + " (" + tile.side + ")"),
                 cell(branch, here, "background:#f5f5f5")));
    tile.paths.forEach((path, p) => {
      rows.push(el("tr", {}, el("th", {className: "muted"}, p === 0 ? "upper path" : "lower path"),
        ...path.map((reward, i) => cell(reward === "none" ? "" : reward,
                                        tokens(s, t => t[0] === k && t[1] === p && t[2] === i)))));
    });
  });
  rows.push(el("tr", {}, el("th", {}, "score spaces"),
               cell("branch: " + G.dev[n - 1].fork, tokens(s, t => t[0] === n && t[1] < 0), "background:#f5f5f5"),
               ...G.score.map((vp, i) => cell(vp + " VP", tokens(s, t => t[0] === n && t[1] >= 0 && t[2] === i)))));
  return el("section", {className: "wide"}, el("h2", {}, "Development (T truck, R train, S ship; the digit is the seat)"),
            el("div", {style: "overflow-x:auto"}, el("table", {style: "width:auto"}, el("tbody", {}, ...rows))));
}

// ---- the players ----------------------------------------------------------------------------
function missionText(G, m) {
  const x = G.missions[m];
  return x ? x.name + " (" + x.kind + (x.arg ? " " + x.arg : "") + " " + x.n + ": " + x.vp + " VP)" : "?";
}
function players(G, s, at) {
  return section("Players", ...s.players.map((pl, seat) => {
    const toPlay = seat === at.toPlay;
    const cards = pl.cards.map(c => cityName(G, c));
    if (pl.blanks) cards.push(plural(pl.blanks, "blank card"));
    const p = pl.public;
    const points = at.step === at.last ? plural(pl.points, "point")
      : plural(pl.points, "point") + " so far (development " + p.dev + ", LV3 posts " + p.lv3 + ", city cards " +
        p.cards + "; missions secret)";
    return el("div", {className: "player" + (toPlay ? " turn" : ""),
                      style: "border-color:" + SEAT_COLOURS[seat % SEAT_COLOURS.length]},
      el("h3", {}, seatName(seat) + (toPlay ? " \u2014 to play" : "")),
      el("div", {className: "line"}, points),
      el("div", {className: "line"}, "hand: " + pl.hand.map((k, v) => plural(k, G.vehicles[v])).join(", ")),
      el("div", {className: "line"}, "city cards: ", cards.length ? cards.join(", ") : none(),
         pl.secret ? el("span", {className: "muted"}, " + 1 secret card") : ""),
      el("div", {className: "line"}, "missions: ", pl.kept === null ? plural(pl.missions, "mission") + " (secret)"
         : (pl.kept.length ? pl.kept.map(m => missionText(G, m)).join("; ") : none())),
      el("div", {className: "line muted"}, plural(pl.deliveries, "delivery", "deliveries") + " \u00b7 " +
         plural(pl.passes, "pass", "passes")));
  }));
}

const BOARD = {
  turnWord: "round",
  status(G, s) {
    if (s.phase === 4 || s.phase === 5) return ", turn " + Math.min(s.turn_in_round + 1, G.turns_per_round);
    return ", " + (PHASE_WORDS[s.phase] || "phase " + s.phase);
  },
  draw(G, s, at) {
    return [roundBox(G, s), players(G, s, at), mapBox(G, s), devBox(G, s)];
  },
};
