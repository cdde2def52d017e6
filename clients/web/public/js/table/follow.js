// @ts-check
/**
 * Following the match: its events as they come (the stream, else long polls), each shown once, other seats' plays
 * one after another at a pace a player can follow; after them the seat's view and legal plays are read again.
 */

import * as api from "../api.js";
import { applyEvent } from "./state.js";

/** @typedef {import("./state.js").Table} Table */
/** @typedef {import("../api.js").MatchEvent} MatchEvent */

/** Milliseconds between other seats' plays as the page shows them (localStorage "tienlen.pace" overrides). */
const PACE_MS = Number(localStorage.getItem("tienlen.pace") ?? "700");
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The seat on turn once `event` is shown, as the events tell it: after a play or a pass the next seat round the
 * table still in the hand and not pass-locked; after a table cleared or a hand started its leader. The turn (and
 * its highlight) thus moves with each play shown, not only once the showing ends; the view read after the showing
 * has the last word (a locked seat that may still bomb a 2, say).
 * @param {import("../api.js").SeatView} view the view with the event applied @param {MatchEvent} event
 */
function expectTurn(view, event) {
  if (event.type === "hand_started" || event.type === "table_cleared") view.turn = event.leader;
  else if (event.type === "hand_ended" || event.type === "match_ended") view.turn = null;
  else if (event.type === "played" || event.type === "passed") {
    const count = view.seats.length;
    const next = Array.from({ length: count - 1 }, (_, i) => view.seats[(event.seat + 1 + i) % count])
      .find((s) => s && s.place === null && !s.passed);
    view.turn = next ? next.seat : event.seat;
  }
}

/**
 * @typedef {object} Follower
 * @property {() => Promise<void>} refresh read the seat's view and, on its turn, its legal plays; then redraw
 * @property {() => Promise<void>} refreshShowingErrors refresh, a failure shown in the error line
 * @property {(events: MatchEvent[]) => void} enqueue show these events (those not shown yet), then refresh
 * @property {() => () => void} start follow the match's events after the view's last one; returns what stops it
 */

/**
 * @param {Table} table @param {(event: MatchEvent) => void} show writes an event in the log
 * @returns {Follower}
 */
export function follower({ state, redraw, showError }, show) {
  let lastSeq = state.view.last_seq; // the last event queued
  /** @type {MatchEvent[]} */
  const queue = [];
  let asked = 0; // reads of the view asked for: only the latest is drawn

  /** The seat's view and, on its turn, its legal plays: the truth after the events shown. */
  async function refresh() {
    if (state.stopped) return; // the page has left the table (its token may be revoked): nothing is asked
    const ask = ++asked;
    const fresh = await api.view(state.matchId, state.held.token);
    if (state.stopped) return;
    const options = fresh.status === "playing" && fresh.turn === fresh.seat ? await api.legal(state.matchId, state.held.token) : null;
    if (ask !== asked || state.stopped) return;
    state.view = fresh;
    state.legal = options;
    redraw();
  }
  const refreshShowingErrors = () => refresh().catch(showError);

  /** Events to show: each once, other seats' plays one after another; then the view is asked again. */
  /** @param {MatchEvent[]} events */
  function enqueue(events) {
    for (const event of events) {
      if (event.seq <= lastSeq) continue;
      lastSeq = event.seq;
      queue.push(event);
    }
    if (queue.length && !state.revealing) void reveal();
  }

  async function reveal() {
    state.revealing = true;
    redraw();
    while (queue.length && !state.stopped) {
      const event = /** @type {MatchEvent} */ (queue.shift());
      show(event);
      const unseen = event.seq > state.view.last_seq;
      applyEvent(state, event);
      if (unseen) expectTurn(state.view, event);
      redraw();
      if ((event.type === "played" || event.type === "passed") && event.seat !== state.view.seat) await sleep(PACE_MS);
      if (event.type === "hand_ended") await (state.betweenHands?.(event) ?? sleep(PACE_MS * 3)); // B: the score review, else a moment
    }
    state.revealing = false;
    await refreshShowingErrors();
  }

  const start = () => api.follow(state.matchId, state.view.last_seq, (event) => enqueue([event]));
  return { refresh, refreshShowingErrors, enqueue, start };
}
