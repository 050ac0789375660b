// The toy game's board on the replay page (tests/core/test_replay.py): each seat's position.
const BOARD = {
  draw(G, s, at) {
    return [section("The race to " + G.target, ...s.pos.map((p, seat) =>
      el("div", {className: "player" + (seat === at.toPlay ? " turn" : ""), id: "seat-" + seat},
         mark(seat, seatName(seat)), " at " + p)))];
  },
};
