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

/**
 * The seats around the table, each with its name, bot level, cards left, passed mark, place and score.
 * @param {import("./api.js").SeatView} view
 */
export function seatBoxes(view) {
  const count = view.seats.length;
  return view.seats.map((s) => {
    const where = (PLACES[count] ?? [])[(s.seat - view.seat + count) % count] ?? "top";
    const facts = [];
    if (s.bot) facts.push(s.taken_over ? `${t("taken_over")} (${t(`bot_${s.bot}`)})` : t(`bot_${s.bot}`));
    if (s.left) facts.push(t("left_mark"));
    if (view.status !== "waiting") facts.push(s.cards_left === 1 ? t("card_left") : t("cards_left", { n: s.cards_left }));
    if (s.passed) facts.push(t("passed_mark"));
    if (s.place) facts.push(t("place", { n: s.place }));
    facts.push(t("score", { n: s.score }));
    const onTurn = view.status === "playing" && s.seat === view.turn;
    return h("div", {
      role: "listitem", class: `seat at-${where}${onTurn ? " on-turn" : ""}${s.passed ? " passed" : ""}`, "data-seat": s.seat,
      "aria-current": onTurn ? "true" : false,
    }, [
      h("strong", { class: "seat-name" }, [s.open ? t("open_seat") : s.seat === view.seat ? `${s.name} (${t("you")})` : s.name ?? "—"]),
      // each fact unbroken; a line may end with the "·" between two (CSS), never start with it
      h("span", { class: "seat-facts" }, facts.flatMap((fact, i) => [...(i ? [" "] : []), h("span", { class: "fact" }, [fact])])),
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
 * The results of each hand (places) and the running scores: one row per hand, the totals below.
 * @param {import("./api.js").SeatView} view @param {Namer} name
 */
export function results(view, name) {
  if (view.hands.length === 0) return [];
  const places = view.hands.map((done) => h("p", { class: "hand-result" }, [t("ev_hand_ended", {
    n: done.hand_number, places: done.places.map((s, i) => `${i + 1}. ${name(s)}`).join(", "),
  })]));
  const head = h("tr", {}, [h("th", { scope: "col" }, [t("hand_col")]),
    ...view.seats.map((s) => h("th", { scope: "col" }, [name(s.seat)]))]);
  const rows = view.hands.map((done) => h("tr", {}, [h("th", { scope: "row" }, [String(done.hand_number)]),
    ...view.seats.map((s) => h("td", {}, [String(done.points[s.seat] ?? 0)]))]));
  const total = h("tr", { class: "total" }, [h("th", { scope: "row" }, [t("total")]),
    ...view.seats.map((s) => h("td", { "data-seat": s.seat }, [String(s.score)]))]);
  return [
    h("h2", {}, [t("results")]), ...places,
    h("table", { id: "scores" }, [h("caption", {}, [t("scores")]), h("thead", {}, [head]), h("tbody", {}, [...rows, total])]),
  ];
}
