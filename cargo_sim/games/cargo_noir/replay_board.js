// Cargo Noir's board on the replay page (core/replay_template.html inlines it): the
// ports, the players, the Black Market and Casino, the bag, discard pile, bank and cards.
const TOKEN_COLOURS = ["#8e44ad", "#566573", "#d35400", "#2e86c1", "#795548", "#00897b",
                       "#c2185b", "#b7950b", "#43a047", "#212121", "#00838f", "#6d4c41",
                       "#5d6d7e", "#ad1457", "#283593", "#00695c"];

function tokens(G, counts) {
  const out = el("span");
  counts.forEach((n, t) => {
    if (n > 0) {
      const name = G.tokens[t] === "wild" ? "Wild" : G.tokens[t];
      out.append(chip(n > 1 ? n + " " + name : name, TOKEN_COLOURS[t % TOKEN_COLOURS.length]));
    }
  });
  if (!out.childNodes.length) out.append(none());
  return out;
}

const BOARD = {
  turnWord: "turn",
  status(G, s) { return s.phase >= 1 && s.phase <= 3 ? ", phase " + s.phase : ""; },
  draw(G, s, at) {
    const ports = G.ports.map((name, p) => {
      const ships = el("span");
      s.ports[p].bids.forEach((b, seat) => { if (b > 0) ships.append(mark(seat, "seat " + seat + ": " + plural(b, "coin"))); });
      if (!ships.childNodes.length) ships.append(none());
      return el("tr", {}, el("td", {}, name, el("div", {className: "muted"}, plural(G.slots[p], "slot"))),
                el("td", {}, tokens(G, s.ports[p].cargo)), el("td", {}, ships));
    });

    const players = s.players.map((pl, seat) => {
      const cards = [];
      pl.cards.forEach((k, c) => { if (k > 0) cards.push(k > 1 ? k + " \u00d7 " + G.cards[c] : G.cards[c]); });
      const held = pl.tokens.reduce((a, b) => a + b, 0);
      const toPlay = seat === at.toPlay;
      return el("div", {className: "player" + (toPlay ? " turn" : ""),
                        style: "border-color:" + SEAT_COLOURS[seat]},
        el("h3", {}, seatName(seat) + (toPlay ? " \u2014 to play" : "")),
        el("div", {className: "line"}, plural(pl.coins, "coin") + " \u00b7 " + plural(pl.vp, "VP", "VP") +
           " in cards \u00b7 " + plural(pl.ships, "ship") + " (" + pl.home + " at home) \u00b7 warehouse " +
           held + " of " + pl.warehouse),
        el("div", {className: "line"}, "cargo: ", tokens(G, pl.tokens)),
        el("div", {className: "line"}, "cards: ", cards.length ? cards.join(", ") : none()));
    });

    const bmShips = el("span"), casinoShips = el("span");
    s.players.forEach((pl, seat) => {
      if (pl.bm > 0) bmShips.append(mark(seat, "seat " + seat + ": " + plural(pl.bm, "ship")));
      if (pl.casino > 0) casinoShips.append(mark(seat, "seat " + seat + ": " + plural(pl.casino, "ship")));
    });
    for (const box of [bmShips, casinoShips])
      if (!box.childNodes.length) box.append(none("no ships"));

    const supply = [];
    s.supply.forEach((k, c) => supply.push(G.cards[c] + " " + k));
    return [
      section("Ports", el("table", {},
        el("thead", {}, el("tr", {}, el("th", {}, "port"), el("th", {}, "cargo"), el("th", {}, "ships (coins bid)"))),
        el("tbody", {}, ...ports))),
      section("Players", ...players),
      section("Black Market and Casino", el("table", {}, el("tbody", {},
        el("tr", {}, el("th", {}, "Black Market"), el("td", {}, tokens(G, s.bm)), el("td", {}, bmShips)),
        el("tr", {}, el("th", {}, "Casino"), el("td", {}, ""), el("td", {}, casinoShips))))),
      section("Bag, discard pile, bank and cards", el("table", {}, el("tbody", {},
        el("tr", {}, el("th", {}, "bag"), el("td", {}, tokens(G, s.bag))),
        el("tr", {}, el("th", {}, "discard pile"), el("td", {}, tokens(G, s.discard))),
        el("tr", {}, el("th", {}, "bank"), el("td", {}, plural(s.bank, "coin"))),
        el("tr", {}, el("th", {}, "cards left"), el("td", {className: "muted"}, supply.join(", ")))))),
    ];
  },
};
