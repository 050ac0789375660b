// Macao's board on the replay page (core/replay_template.html inlines it): the city and
// its quarters, the wall and the ship route, the round (dice, offer, tribute, cube supply)
// and each player's wind rose, goods, cards, coins, points and penalty markers.
const CUBE_COLOURS = {green: "#2e7d32", grey: "#757575", gray: "#757575", blue: "#1565c0",
                      black: "#212121", purple: "#6a1b9a", red: "#c62828"};
const SPARE = ["#00838f", "#6d4c41", "#ad1457", "#283593", "#b7950b", "#43a047"];
const GOODS_COLOUR = "#8d6e63";
const PHASES = ["start cubes", "set-up draft", "cards", "dice", "actions", "over"];

function cubeColour(G, c) { return CUBE_COLOURS[G.colours[c]] || SPARE[c % SPARE.length]; }
function cubes(G, counts, empty) {
  const out = el("span");
  counts.forEach((k, c) => { if (k > 0) out.append(chip(k + " " + G.colours[c], cubeColour(G, c))); });
  if (!out.childNodes.length) out.append(none(empty));
  return out;
}
function cardName(G, c) { return c >= 0 && c < G.cards.length ? G.cards[c].name : "?"; }
function cardList(G, list, empty) {
  return list.length ? list.join(", ") : none(empty);
}

function city(G, s) {
  const rows = Math.max(...G.quarters.map(q => q.row)) + 1;
  const cols = Math.max(...G.quarters.map(q => q.col)) + 1;
  const grid = el("div", {style: "display:grid;gap:3px;grid-template-columns:repeat(" + cols + ",minmax(54px,1fr))"});
  const at = {};
  G.quarters.forEach((q, i) => { at[q.row * cols + q.col] = i; });
  for (let cell = 0; cell < rows * cols; cell++) {
    const i = at[cell];
    if (i === undefined) { grid.append(el("div")); continue; }
    const q = G.quarters[i], owner = s.owner[i];
    const cost = el("div");
    q.cost.forEach((k, c) => { if (k > 0) cost.append(chip(String(k), cubeColour(G, c))); });
    const tile = owner >= 0 ? mark(owner, "seat " + owner)
      : (q.tile >= 0 ? chip(G.goods[q.tile], GOODS_COLOUR) : chip("joker", "#455a64"));
    grid.append(el("div", {className: "quarter", title: "quarter " + q.name,
                           style: "border:1px solid #cfc8bb;border-radius:4px;padding:2px 3px;font-size:12px;" +
                                  (q.dark ? "background:#d7d2c8;" : "background:#fbfaf7;")},
                   el("div", {className: "muted"}, q.name + (q.dark ? " (dark)" : "")), tile, cost));
  }
  return section("The city (quarters: cost in cubes, goods tile or owner)", grid);
}

function track(G, length, seatsAt, label) {
  const rows = [];
  for (let space = 0; space < length; space++) {
    const here = seatsAt(space);
    const name = label(space);
    if (!here.length && !name) continue;
    rows.push(el("tr", {}, el("td", {className: "num"}, space), el("td", {}, name || ""),
                 el("td", {}, ...(here.length ? here : [none("")]))));
  }
  return el("table", {}, el("tbody", {}, ...rows));
}

function wallAndRoute(G, s) {
  const wall = track(G, G.wall_spaces, space => s.players
      .map((pl, seat) => ({pl, seat})).filter(x => x.pl.wall === space)
      .sort((a, b) => b.pl.stamp - a.pl.stamp)             // the top of the stack first
      .map(x => mark(x.seat, "seat " + x.seat)), () => "");
  const ports = {};
  G.ports.forEach((p, i) => { ports[p.space] = i; });
  const route = track(G, G.route_end + 1, space => s.players
      .map((pl, seat) => ({pl, seat})).filter(x => x.pl.ship === space)
      .map(x => mark(x.seat, "seat " + x.seat + "'s ship")), space => {
        const i = ports[space];
        if (i === undefined) return space === 0 ? "start" : "";
        const p = G.ports[i];
        return p.name + " (takes " + p.goods.map(g => G.goods[g]).join(", ") + "; " +
               plural(s.delivered[i], "delivery", "deliveries") + ")";
      });
  return [section("The wall (discs by space, the top of a stack first)", wall),
          section("The ship route (ports, ships)", route)];
}

function roundBox(G, s) {
  const dice = el("span");
  s.dice.forEach((v, c) => { if (v > 0) dice.append(chip(G.colours[c] + " " + v, cubeColour(G, c))); });
  if (!dice.childNodes.length) dice.append(none("not rolled"));
  const offer = s.offer.filter(c => c >= 0).map(c => cardName(G, c));
  const rows = [
    el("tr", {}, el("th", {}, "phase"), el("td", {}, PHASES[s.phase] || String(s.phase))),
    el("tr", {}, el("th", {}, "turn order"), el("td", {}, s.order.map(q => "seat " + q).join(", "))),
    el("tr", {}, el("th", {}, "dice"), el("td", {}, dice)),
    el("tr", {}, el("th", {}, "cards on offer"), el("td", {}, cardList(G, offer, "none left"))),
    el("tr", {}, el("th", {}, "tribute"), el("td", {}, plural(s.tribute[0], "coin") + " for " +
                                                     plural(s.tribute[1], "point"))),
    el("tr", {}, el("th", {}, "cube supply"), el("td", {}, s.supply === null ? "unlimited"
      : cubes(G, s.supply, "empty"))),
  ];
  if (s.bank !== null) rows.push(el("tr", {}, el("th", {}, "bank"), el("td", {}, plural(s.bank, "coin"))));
  return section("The round", el("table", {}, el("tbody", {}, ...rows)));
}

function players(G, s, at) {
  return section("Players", ...s.players.map((pl, seat) => {
    const toPlay = seat === at.toPlay;
    const rose = el("table", {}, el("tbody", {}, ...pl.rose.map((counts, side) =>
      el("tr", {}, el("th", {}, side === 0 ? "this round" : "side " + side), el("td", {}, cubes(G, counts, ""))))));
    const goods = el("span");
    pl.goods.forEach((k, g) => { if (k > 0) goods.append(chip(k > 1 ? k + " " + G.goods[g] : G.goods[g], GOODS_COLOUR)); });
    if (pl.jokers > 0) goods.append(chip(plural(pl.jokers, "joker"), "#455a64"));
    if (!goods.childNodes.length) goods.append(none());
    const active = [], done = [];
    pl.completed.forEach((c, i) => {
      const card = G.cards[c];
      if (card && card.activated) active.push(card.name + (pl.used[i] > 0 ? " (used this round)" : ""));
      else done.push(cardName(G, c));
    });
    return el("div", {className: "player" + (toPlay ? " turn" : ""),
                      style: "border-color:" + SEAT_COLOURS[seat % SEAT_COLOURS.length]},
      el("h3", {}, seatName(seat) + (toPlay ? " \u2014 to play" : "")),
      el("div", {className: "line"}, plural(pl.coins, "coin") + " \u00b7 " + plural(pl.points, "point") +
         " \u00b7 " + plural(pl.penalties, "penalty marker") + " \u00b7 " +
         plural(pl.quarters, "quarter") + " (" + (G.markers - pl.quarters - pl.penalties) + " markers left)" +
         " \u00b7 wall space " + pl.wall + " \u00b7 ship at space " + pl.ship),
      el("div", {className: "line"}, "goods: ", goods),
      el("div", {className: "line"}, "in hand (tableau): ", cardList(G, pl.tableau.map(c => cardName(G, c)))),
      el("div", {className: "line"}, "active: ", cardList(G, active)),
      el("div", {className: "line"}, "completed: ", cardList(G, done)),
      el("div", {className: "line"}, "wind rose:"), rose);
  }));
}

const BOARD = {
  turnWord: "round",
  status(G, s) { return ", " + (PHASES[s.phase] || "phase " + s.phase); },
  draw(G, s, at) {
    return [roundBox(G, s), players(G, s, at), city(G, s), ...wallAndRoute(G, s)];
  },
};
