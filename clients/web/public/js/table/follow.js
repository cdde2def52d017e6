// @ts-check
/**
 * Following the match: its events as they come (the stream, else long polls), each shown once, other seats' plays
 * one after another at a pace a player can follow (quicker once the page's seat is out of the hand; Skip: at once, in
 * order, to the hand's end); after them the seat's view and legal plays (a watcher: the match) are read again.
 */

import * as api from "../api.js";
import { applyEvent } from "./state.js";

/** @typedef {import("./state.js").Shown} Shown */
/** @typedef {import("../api.js").MatchEvent} MatchEvent */

/** Milliseconds between other seats' plays as the page shows them (localStorage "tienlen.pace" overrides). */
export const PACE_MS = Number(localStorage.getItem("tienlen.pace") ?? "700");
/** The pace once the page's own seat is out of the hand: a quarter, at most 200 ms ("tienlen.pace.out" overrides). */
const OUT_PACE_MS = Number(localStorage.getItem("tienlen.pace.out") ?? Math.min(200, PACE_MS / 4));

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
 * @property {() => void} skip show the rest of the hand being shown at once (its events in order), up to its end
 */

/** A read: its last event, what puts it in the state. @typedef {() => Promise<{seq: number, put: () => void}>} Reader */

/** The seat's view and, on its turn, its legal plays. @param {import("./state.js").TableState} state @returns {Reader} */
export const seatReader = (state) => async () => {
  const fresh = await api.view(state.matchId, state.held.token);
  if (state.stopped) return { seq: 0, put: () => {} };
  const options = fresh.status === "playing" && fresh.turn === fresh.seat ? await api.legal(state.matchId, state.held.token) : null;
  return { seq: fresh.last_seq, put: () => { state.view = fresh; state.legal = options; } };
};

/**
 * @param {Shown} shown @param {(event: MatchEvent) => void} show writes an event in the log
 * @param {Reader} read reads the truth after the events shown
 * @returns {Follower}
 */
export function follower({ state, redraw, showError }, show, read) {
  let lastSeq = state.view.last_seq; // the last event queued
  /** @type {MatchEvent[]} */
  const queue = [];
  let asked = 0; // reads of the view asked for: only the latest is drawn
  /** @type {(() => void) | null} */
  let wake = null; // ends the pause between two plays (Skip)

  /** A pause, ended early by Skip. @param {number} ms */
  const pause = (ms) => new Promise((resolve) => {
    const timer = setTimeout(() => { wake = null; resolve(undefined); }, ms);
    wake = () => { clearTimeout(timer); wake = null; resolve(undefined); };
  });

  /** Read the truth after the events shown, then draw; events it holds not yet shown are shown first. */
  async function refresh() {
    if (state.stopped) return; // the page has left the table (its token may be revoked): nothing is asked
    const ask = ++asked;
    const { seq, put } = await read();
    if (ask !== asked || state.stopped) return;
    const missed = seq > lastSeq ? await api.eventsSoFar(state.matchId, lastSeq, seq).catch(() => []) : [];
    if (ask !== asked || state.stopped) return;
    if (missed.some((e) => e.seq > lastSeq)) return enqueue(missed); // then read again
    put();
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
      if (event.type === "went_out" && event.seat === state.view.seat) state.out = true;
      if (event.type === "hand_ended" || event.type === "hand_started") state.out = state.skipping = false;
      // skipping: drawn once at the end (no card flies, no sound, for each play)
      if (!state.skipping || queue.length === 0) redraw();
      const paced = (event.type === "played" || event.type === "passed") && event.seat !== state.view.seat;
      if (paced && !state.skipping) await pause(state.out ? OUT_PACE_MS : PACE_MS);
      if (event.type === "hand_ended") {
        redraw();
        await (state.betweenHands?.(event) ?? pause(PACE_MS * 3)); // B: the score review, else a moment
      }
    }
    state.revealing = false;
    await refreshShowingErrors();
  }

  const skip = () => {
    if (!state.out || state.skipping) return;
    state.skipping = true;
    wake?.();
    redraw();
  };

  const start = () => api.follow(state.matchId, state.view.last_seq, (event) => enqueue([event]));
  return { refresh, refreshShowingErrors, enqueue, start, skip };
}
