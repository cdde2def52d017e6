// @ts-check
/**
 * What the table of one match knows and is doing, in one small object that each of its jobs is handed: the seat's
 * view (with the events shown since it was read), its legal plays, the picked cards and what the page is busy with.
 */

import { judge } from "../cards.js";
import { t } from "../i18n.js";

/** @typedef {import("../api.js").SeatView} SeatView */
/** @typedef {import("../api.js").Legal} Legal */
/** @typedef {import("../api.js").MatchEvent} MatchEvent */
/** @typedef {import("../store.js").HeldSeat} HeldSeat */

/**
 * What a page showing a match's play knows (a seat's table, a watcher's page).
 * @typedef {object} ShownState
 * @property {string} matchId the match shown
 * @property {SeatView} view the seat's view, with the events shown since it was read already applied (a watcher's: see
 *   watch/state.js)
 * @property {boolean} revealing events are being shown one after another (the turn is not yet known)
 * @property {number | null} handOver a hand just over, shown on the felt until the next one starts
 * @property {boolean} stopped the page has left the table: nothing more is drawn or asked
 * @property {boolean} out the page's seat is out of the hand shown: the rest comes quicker
 * @property {boolean} skipping Skip was chosen: the rest of the hand comes at once
 * @property {((event: import("../../../types/openapi").components["schemas"]["HandEndedEvent"]) => Promise<void>) | null} betweenHands what the page does
 *   when it shows a hand's end: resolves when the next hand may be shown (the table sets it; null: a short pause)
 */

/**
 * The seat's own part of the table's state.
 * @typedef {object} SeatState
 * @property {HeldSeat} held the seat this browser holds at it (its token and name)
 * @property {Legal | null} legal the seat's legal plays on its turn (null when it is not on turn, or not yet known)
 * @property {Set<string>} selected the cards of the hand picked
 * @property {boolean} busy a request of this page is under way (the buttons wait for it)
 * @property {Review | null} review a hand of a match just over, its scores shown until the player chooses Next hand
 */

/** @typedef {ShownState & SeatState} TableState */

/**
 * A hand just over, reviewed before the next: its end, and the seat's view read right after it (its scores).
 * @typedef {object} Review
 * @property {import("../../../types/openapi").components["schemas"]["HandEndedEvent"]} ended
 * @property {SeatView} view
 */

/**
 * What every job of the table is handed: the state, and the two things any job may need to do with it.
 * @typedef {object} Table
 * @property {TableState} state
 * @property {() => void} redraw draw every part of the table again from the state
 * @property {(problem: unknown) => void} showError write a refusal or failure in the error line ("" clears it)
 */

/** What following a match is handed: a seat's Table, or a watcher's page. @typedef {Omit<Table, "state"> & {state: ShownState}} Shown */

/** Whether the view's own seat has gone out of the hand in play (a watcher's never). @param {SeatView} view */
export const seatIsOut = (view) => view.status === "playing" && (view.seats[view.seat]?.place ?? null) !== null;

/** @param {string} matchId @param {HeldSeat} held @param {SeatView} view @returns {TableState} */
export const createState = (matchId, held, view) => ({
  matchId, held, view, legal: null, selected: new Set(), busy: false, revealing: false, handOver: null, stopped: false,
  review: null, betweenHands: null, out: seatIsOut(view), skipping: false,
});

/**
 * How the table names a seat: "you" for its own, else the seat's name ("?" for none, "#n" for a seat unknown).
 * @param {ShownState} state
 * @returns {import("../board.js").Namer}
 */
export const namer = (state) => (seat) =>
  seat === undefined ? "?" : seat === state.view.seat ? t("you") : state.view.seats[seat]?.name ?? `#${seat}`;

/** Whether the seat may act now: on its turn, with no events still being shown. @param {TableState} state */
export const myTurn = (state) =>
  state.view.status === "playing" && state.view.turn === state.view.seat && !state.revealing;

/** The picked cards that are still in the hand (a play or a new hand takes the others away). @param {TableState} state */
export function keepSelectionInHand(state) {
  state.selected = new Set([...state.selected].filter((c) => state.view.cards.includes(c)));
}

/** What the page says about the selection now, and whether Play may send it. @param {TableState} state */
export const verdict = (state) => judge([...state.selected], myTurn(state) ? state.legal : null, state.view);

/**
 * What an event changes on the table, shown at once (the next read of the view brings the whole truth).
 * @param {ShownState} state @param {MatchEvent} event
 */
export function applyEvent(state, event) {
  const view = state.view;
  if (event.seq <= view.last_seq) return; // the view has it already
  view.last_seq = event.seq;
  if (event.type === "played") {
    const seat = view.seats[event.seat];
    view.table = { seat: event.seat, cards: event.cards, kind: event.kind };
    if (seat) seat.cards_left = Math.max(0, seat.cards_left - event.cards.length);
    if (event.seat === view.seat) view.cards = view.cards.filter((c) => !event.cards.includes(c));
  } else if (event.type === "passed") {
    const seat = view.seats[event.seat];
    if (seat) seat.passed = true;
  } else if (event.type === "table_cleared") {
    view.table = null;
    for (const s of view.seats) s.passed = false;
  } else if (event.type === "went_out") {
    const seat = view.seats[event.seat];
    if (seat) seat.place = event.place;
  } else if (event.type === "hand_ended") {
    state.handOver = event.hand_number;
    view.table = null;
  } else if (event.type === "hand_started") {
    state.handOver = null;
  }
}

/**
 * Whether the picked cards are a legal play that no larger legal play holds: the seat's legal plays (its /legal
 * answer) decide, so it may be played at once.
 * @param {TableState} state
 */
export function cannotExtend(state) {
  const picked = state.selected;
  if (!myTurn(state) || !state.legal || picked.size === 0 || !verdict(state).ok) return false;
  return !state.legal.plays.some((p) => p.cards.length > picked.size && [...picked].every((c) => p.cards.includes(c)));
}
