// @ts-check
/** What the table shows of a match: the seats around it, the play on it, the results and running scores. */

import { describe, faceUp, sorted } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Where the other seats sit, counted from yours (you are at the bottom), by the number of players. */
const PLACES = /** @type {Record<number, string[]>} */ ({
  2: ["me", "top"], 3: ["me", "right", "left"], 4: ["me", "right", "top", "left"],
});

/** @typedef {(seat: number | undefined) => string} Namer */

/** A seat's initials: the first letters of its name's first two words ("Bot 2": "B2"), "?" for none. @param {string | null} name */
export function initials(name) {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const letters = words.length === 1 ? [...words[0]].slice(0, 2) : [[...words[0]][0], [...words[1]][0]];
  return letters.join("").toLocaleUpperCase();
}

/** The ring drawn round a seat's initials: its clock while on turn (tick shortens it). */
function avatar(/** @type {string} */ letters) {
  const box = h("span", { class: "avatar", "aria-hidden": "true" });
  box.innerHTML = '<svg class="ring" viewBox="0 0 44 44" focusable="false"><circle class="ring-track" cx="22" cy="22" r="20"/>'
    + '<circle class="ring-left" cx="22" cy="22" r="20" pathLength="100"/></svg>';
  box.append(h("span", { class: "initials" }, [letters]));
  return box;
}

/** The seat's cards as backs fanned out (a picture only: its count is said in words beside it). @param {number} n */
const backs = (n) => h("span", { class: "backs", "aria-hidden": "true" },
  Array.from({ length: Math.min(n, 13) }, () => h("span", { class: "back" })));

/**
 * The seats around the table, each with its initials in a ring (its clock on turn), name, bot level, cards left (in
 * words and as fanned backs), passed mark (the seat greyed), place and score (a watcher's: seat 0 at the bottom).
 * @param {import("./api.js").SeatView} view
 */
export function seatBoxes(view) {
  const count = view.seats.length;
  const bottom = view.seats.some((s) => s.seat === view.seat) ? view.seat : 0;
  return view.seats.map((s) => {
    const where = (PLACES[count] ?? [])[(s.seat - bottom + count) % count] ?? "top";
    const facts = [];
    if (s.bot) facts.push(s.taken_over ? `${t("taken_over")} (${t(`bot_${s.bot}`)})` : t(`bot_${s.bot}`));
    if (s.left) facts.push(t("left_mark"));
    if (view.status !== "waiting") facts.push(s.cards_left === 1 ? t("card_left") : t("cards_left", { n: s.cards_left }));
    if (s.passed) facts.push(t("passed_mark"));
    if (s.place) facts.push(t("place", { n: s.place }));
    facts.push(t("score", { n: s.score }));
    const onTurn = view.status === "playing" && s.seat === view.turn;
    const out = view.status === "playing" && s.place !== null;
    return h("div", {
      role: "listitem", "data-seat": s.seat, "aria-current": onTurn ? "true" : false,
      class: `seat at-${where}${onTurn ? " on-turn" : ""}${s.passed ? " passed" : ""}${out ? " out" : ""}`,
    }, [
      avatar(s.open ? "?" : initials(s.name)),
      h("span", { class: "seat-body" }, [
        h("strong", { class: "seat-name" }, [s.open ? t("open_seat") : s.seat === view.seat ? `${s.name} (${t("you")})` : s.name ?? "—"]),
        // each fact unbroken; a line may end with the "·" between two (CSS), never start with it
        h("span", { class: "seat-facts" }, facts.flatMap((fact, i) => [...(i ? [" "] : []), h("span", { class: "fact" }, [fact])])),
        ...(view.status === "playing" && s.seat !== view.seat && s.cards_left > 0 ? [backs(s.cards_left)] : []),
      ]),
      ...(s.place && view.status !== "waiting" ? [h("span", { class: "place-badge", "aria-hidden": "true" }, [String(s.place)])] : []),
    ]);
  });
}

/**
 * The play on the table and who made it; on an empty table, what the felt says instead: who leads, the hand or the
 * match that is over, the players awaited.
 * @param {import("./api.js").SeatView} view @param {Namer} name
 * @param {{handOver: number | null, showing: boolean}} state a hand just over (shown until the next starts), and
 *   whether events are being shown (the view's turn is not yet known)
 */
export function tablePlay(view, name, state) {
  if (!view.table) {
    const words = view.status === "waiting" ? t("felt_waiting")
      : view.status === "finished" ? `${t("felt_over")} ${view.winner === null ? "" : t("winner", { name: name(view.winner) })}`
        : state.handOver !== null ? t("felt_hand_over", { n: state.handOver })
          : state.showing || view.turn === null ? t("table_empty") : t("felt_lead", { name: name(view.turn) });
    return h("p", { id: "table-play", class: "felt-line" }, [words.trim()]);
  }
  return h("p", { id: "table-play", "data-seat": view.table.seat }, [
    h("span", {}, [t("table_by", { name: name(view.table.seat), what: describe(view.table.cards) })]),
    h("span", { class: "faces" }, sorted(view.table.cards).map((c) => faceUp(c))),
  ]);
}

/**
 * The seats from first to last of the match: by score, the winners first, ties by the last hand's places.
 * @param {import("./api.js").SeatView} view
 */
export function standings(view) {
  const last = view.hands[view.hands.length - 1]?.places ?? [];
  const key = (/** @type {import("./api.js").SeatView["seats"][number]} */ s) =>
    [view.winners.includes(s.seat) ? 0 : 1, -s.score, last.includes(s.seat) ? last.indexOf(s.seat) : 99];
  return [...view.seats].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/**
 * The points of the hands up to `upTo` (all by default): one row per hand, their totals below.
 * @param {import("./api.js").SeatView} view @param {Namer} name @param {{id?: string, upTo?: number}} [options]
 */
export function scoreTable(view, name, options = {}) {
  const hands = view.hands.filter((done) => options.upTo === undefined || done.hand_number <= options.upTo);
  const head = h("tr", {}, [h("th", { scope: "col" }, [t("hand_col")]),
    ...view.seats.map((s) => h("th", { scope: "col" }, [name(s.seat)]))]);
  const rows = hands.map((done) => h("tr", {}, [h("th", { scope: "row" }, [String(done.hand_number)]),
    ...view.seats.map((s) => h("td", {}, [String(done.points[s.seat] ?? 0)]))]));
  const total = h("tr", { class: "total" }, [h("th", { scope: "row" }, [t("total")]),
    ...view.seats.map((s) => h("td", { "data-seat": s.seat },
      [String(options.upTo === undefined ? s.score : hands.reduce((sum, done) => sum + (done.points[s.seat] ?? 0), 0))]))]);
  return h("table", { id: options.id ?? "scores", class: "score-table" },
    [h("caption", {}, [t("scores")]), h("thead", {}, [head]), h("tbody", {}, [...rows, total])]);
}

/**
 * The results of each hand (places) and the running scores: one row per hand, the totals below.
 * @param {import("./api.js").SeatView} view @param {Namer} name
 */
export function results(view, name) {
  if (view.hands.length === 0) return [];
  const places = view.hands.map((done) => h("p", { class: "hand-result" }, [t("ev_hand_ended", {
    n: done.hand_number, places: done.places.map((s, i) => `${i + 1}. ${name(s)}`).join(", "),
  })]));
  return [h("h2", {}, [t("results")]), ...places, scoreTable(view, name)];
}
