// @ts-check
/**
 * What a watcher's page knows: the public match (GET /v1/matches/{id}, no hidden card) as a view of no seat, drawn
 * by the seat's own parts (felt, log, following), the last hand's result, and how many watch when the server says.
 */

import * as api from "../api.js";

/**
 * A match as the server may answer it: `spectators` (how many watch it) when the server counts them, else absent.
 * @typedef {api.Match & {spectators?: number | null}} WatchedMatch
 */

/**
 * @typedef {object} WatchExtra
 * @property {import("../table/state.js").Review | null} ended the last hand over (its end, and the match after it)
 * @property {number | null} spectators how many watch the match (null: the server does not say)
 */

/** @typedef {import("../table/state.js").ShownState & WatchExtra} WatchState */

/** The seat of a view that is no seat's: a watcher's (no seat is "you", no card is held). */
export const NO_SEAT = -1;

/**
 * The public match as a view of no seat: what a watcher's page shows with the seat's parts (no card in it).
 * @param {api.Match} match @returns {api.SeatView}
 */
export const watcherView = (match) => ({ ...match, seat: NO_SEAT, cards: [], start_card: null });

/** How many watch `match`, when the server says (null otherwise). @param {WatchedMatch} match */
export const spectatorsOf = (match) => (typeof match.spectators === "number" ? match.spectators : null);

/** @param {WatchedMatch} match @returns {WatchState} */
export const createWatchState = (match) => ({
  matchId: match.match_id, view: watcherView(match), revealing: false, handOver: null, stopped: false, out: false,
  skipping: false, betweenHands: null, ended: null, spectators: spectatorsOf(match),
});

/**
 * The watcher's reader (table/follow.js): the public match, put in the state.
 * @param {WatchState} state @returns {import("../table/follow.js").Reader}
 */
export const watchReader = (state) => async () => {
  /** @type {WatchedMatch} */
  const match = await api.getMatch(state.matchId);
  return { seq: match.last_seq, put: () => { state.view = watcherView(match); state.spectators = spectatorsOf(match); } };
};
