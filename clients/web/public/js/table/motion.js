// @ts-check
/**
 * Cards that move to the middle: the rectangles of the hand's cards and of the seats are noted before a redraw;
 * after it, a new play on the felt flies in from where its cards were (your hand) or from its seat. Nothing moves
 * under prefers-reduced-motion.
 */

const still = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** @typedef {{cards: Map<string, DOMRect>, seats: Map<string, DOMRect>, play: string}} Before */

/** What the table looks like now: the hand's and seats' rectangles, and the play on the felt. @returns {Before} */
export function before() {
  /** @type {Map<string, DOMRect>} */
  const cards = new Map();
  /** @type {Map<string, DOMRect>} */
  const seats = new Map();
  for (const card of document.querySelectorAll("#hand [data-card]")) {
    if (card instanceof HTMLElement) cards.set(card.dataset.card ?? "", card.getBoundingClientRect());
  }
  for (const seat of document.querySelectorAll("#seats .seat")) {
    if (seat instanceof HTMLElement) seats.set(seat.dataset.seat ?? "", seat.getBoundingClientRect());
  }
  return { cards, seats, play: playKey() };
}

/** The play on the felt in short ("" for none). */
function playKey() {
  const play = document.getElementById("table-play");
  return play?.dataset.seat === undefined ? "" : `${play.dataset.seat}:${[...play.querySelectorAll("[data-card]")].map((c) => c instanceof HTMLElement ? c.dataset.card : "").join(" ")}`;
}

/**
 * After a redraw: a new play on the felt moves in from where it came from. Returns whether a new play came.
 * @param {Before} was
 */
export function after(was) {
  const now = playKey();
  if (!now || now === was.play) return false;
  if (still()) return true;
  const play = /** @type {HTMLElement} */ (document.getElementById("table-play"));
  const seat = was.seats.get(play.dataset.seat ?? "");
  for (const face of play.querySelectorAll(".face[data-card]")) {
    if (!(face instanceof HTMLElement)) continue;
    const from = was.cards.get(face.dataset.card ?? "") ?? seat;
    if (!from) continue;
    const to = face.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    face.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
      { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
  }
  return true;
}
