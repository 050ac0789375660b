// Shipwrights' board on the replay page (core/replay_template.html inlines it): the day
// (phase, draft round, turn order, the deck and the goods price on its top card's back,
// the discard pile, the draft packet and the face-down cards) and each seat's gold,
// workers, goods, points, flags, hand, craftsmen, shipyards, tool, buildings and ships.
// An open-hand page (the designer's view): hidden cards are shown, and marked.
const PHASE_NAMES = ["set-up", "draft", "afternoon", "evening", "over"];
const GOODS_COLOURS = {oak: "#8d6e63", wool: "#9e9d24", iron: "#546e7a"};
const KIND_COLOURS = {ship: "#1565c0", craftsman: "#6d4c41", tool: "#455a64",
                      building: "#2e7d32", townsfolk: "#8e24aa"};
const HIDDEN = "#fff3cd";

function card(G, f) {
  if (f < 0) return none("empty");
  const c = G.cards[f];
  const extra = c.kind === "ship" ? " (" + c.points + " pts" + (c.military ? ", " + c.military + " flags" : "") + ")" : "";
  return chip(c.name + extra, KIND_COLOURS[c.kind] || "#333");
}
function cards(G, faces, empty) {
  return faces.length ? el("span", {}, ...faces.map(f => card(G, f))) : none(empty);
}
function goods(G, counts, empty) {
  const out = el("span");
  counts.forEach((k, g) => { if (k > 0) out.append(chip(k + " " + G.goods[g], GOODS_COLOURS[G.goods[g]] || "#777")); });
  if (!out.childNodes.length) out.append(none(empty));
  return out;
}
function hidden(text, ...kids) {
  return el("span", {style: "background:" + HIDDEN + ";padding:1px 4px;border-radius:3px",
                     title: "hidden from the other seats"}, text, ...kids);
}
function backPrice(G, s) {
  if (s.top_back < 0) return none("no card left");
  const b = G.backs[s.top_back];
  const offers = b.goods.map((k, g) => k > 0 ? k + " " + G.goods[g] : "").filter(x => x);
  return el("span", {}, "back " + b.name + ": " + (offers.length ? offers.join(" or ") : "nothing") +
            " for " + G.buy_price[0] + " gold + " + G.buy_price[1] + " workers");
}

function dayBox(G, s) {
  const rows = [
    ["phase", (PHASE_NAMES[s.phase] || String(s.phase)) +
              (s.phase === 1 ? ", draft round " + (s.round + 1) + " of " + G.draft_rounds : "")],
    ["first player", s.first >= 0 ? seatName(s.first) : "-"],
    ["turn order", s.order.map(q => "seat " + q).join(", ")],
    ["deck", plural(s.deck, "card") + " of " + G.deck_size],
    ["goods price (top card's back)", backPrice(G, s)],
    ["discard pile (face up)", el("span", {}, plural(s.discard, "card"),
                                  s.discard ? el("span", {}, ", on top: ", card(G, s.discard_top)) : "")],
    ["draft packet", s.packet.length ? hidden(plural(s.packet.length, "card") + " (seen by the seat drafting): ",
                                              cards(G, s.packet)) : none("none")],
    ["face-down discards", s.facedown.length ? hidden(plural(s.facedown.length, "card") + ": ",
                                                      cards(G, s.facedown)) : none("none")],
  ];
  return section("The day", el("table", {}, el("tbody", {}, ...rows.map(([k, v]) =>
    el("tr", {}, el("th", {}, k), el("td", {}, v))))));
}

function handLine(G, pl, seat) {
  if (!pl.hand.length) return none("empty");
  return el("span", {}, ...pl.hand.map(h => {
    const how = h.round >= G.draft_rounds ? "drawn; seen by no other seat"
      : "draft round " + (h.round + 1) + "; seen by " +
        (h.seen_by.length ? h.seen_by.map(q => "seat " + q).join(", ") : "no other seat");
    return el("span", {title: how}, card(G, h.face),
              el("span", {className: "muted"}, "(" + how + ") "));
  }));
}

function players(G, s, at) {
  return section("Players", ...s.players.map((pl, seat) => {
    const toPlay = seat === at.toPlay;
    const icons = [];
    if (pl.icons[0]) icons.push("+" + pl.icons[0] + " gold");
    if (pl.icons[1]) icons.push((pl.icons[1] > 0 ? "+" : "") + pl.icons[1] + " workers");
    if (pl.icons[2]) icons.push((pl.icons[2] > 0 ? "+" : "") + pl.icons[2] + " mill");
    const points = at.step === at.last ? plural(pl.points, "point")
      : plural(pl.points, "point") + " from ships";
    return el("div", {className: "player" + (toPlay ? " turn" : ""),
                      style: "border-color:" + SEAT_COLOURS[seat % SEAT_COLOURS.length]},
      el("h3", {}, seatName(seat) + (toPlay ? " \u2014 to play" : "")),
      el("div", {className: "line"}, plural(pl.gold, "gold", "gold") + " (at most " + G.gold_max + ") \u00b7 " +
         plural(pl.workers, "worker") + " \u00b7 " + points + " \u00b7 " +
         plural(pl.military, "red flag") + " \u00b7 " +
         plural(pl.ships.length, "ship") + " completed of " + G.ship_goal +
         (pl.protected ? " \u00b7 protected (Watchman)" : "")),
      el("div", {className: "line"}, "mill: ", goods(G, pl.goods, "empty"),
         pl.cart.some(k => k > 0) ? el("span", {}, " \u00b7 on the cart: ", goods(G, pl.cart)) : ""),
      el("div", {className: "line"}, "hand (" + plural(pl.hand.length, "card") + "): ",
         pl.hand.length ? hidden("", handLine(G, pl, seat)) : none("empty")),
      el("div", {className: "line"}, "shipyards: ", el("span", {}, ...pl.yards.map(f => card(G, f)))),
      el("div", {className: "line"}, "craftsmen: ", cards(G, pl.craftsmen)),
      el("div", {className: "line"}, "tool: ", pl.tool >= 0 ? card(G, pl.tool) : none()),
      el("div", {className: "line"}, "buildings: ", cards(G, pl.buildings)),
      el("div", {className: "line"}, "completed ships: ", cards(G, pl.ships),
         icons.length ? el("span", {className: "muted"}, " (each evening " + icons.join(", ") + ")") : ""),
      pl.front.length ? el("div", {className: "line"}, "in front until tomorrow: ", cards(G, pl.front)) : "");
  }));
}

function openNote() {
  return el("section", {className: "wide"}, el("div", {className: "muted"},
    "Open hands (the designer's view): the hands, the draft packet and the face-down discards are shown ",
    hidden("marked like this"), "; a seat at the table sees only its own hand and the cards it passed on " +
    "in the draft (each card says who saw it). Points during the game are the completed ships'; " +
    "buildings and the military token score at the end."));
}

const BOARD = {
  turnWord: "day",
  status(G, s) {
    return ", " + (PHASE_NAMES[s.phase] || "phase " + s.phase) +
           (s.phase === 1 ? " (draft round " + (s.round + 1) + ")" : "");
  },
  draw(G, s, at) {
    return [openNote(), dayBox(G, s), players(G, s, at)];
  },
};
