// @ts-check
/**
 * The table of one match: your hand, the seats, the play on the felt, the clock, events in words, results.
 *
 * Each job is a part of its own (table/*.js); this module reads the seat, lays the parts out, draws them from one
 * small state object (table/state.js) and starts following the match.
 */

import * as api from "./api.js";
import { h, message } from "./dom.js";
import { t } from "./i18n.js";
import { forgetSeat, heldSeat } from "./store.js";
import { actionsPart } from "./table/actions.js";
import { feltPart } from "./table/felt.js";
import { follower } from "./table/follow.js";
import { handPart } from "./table/hand.js";
import { showJoin } from "./table/join.js";
import { leavingPart } from "./table/leaving.js";
import { logPart } from "./table/log.js";
import { resultsPart } from "./table/results.js";
import { seatsPart } from "./table/seats.js";
import { createState, keepSelectionInHand, myTurn } from "./table/state.js";

/**
 * @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the table (its stream and clock)
 */
export async function showTable(root, matchId, go) {
  const held = heldSeat(matchId);
  if (!held) return showJoin(root, matchId, go);
  /** @type {api.SeatView} */
  let view;
  try {
    view = await api.view(matchId, held.token);
  } catch (e) {
    showUnreadable(root, matchId, go, e);
    return () => {};
  }
  const error = h("p", { id: "error", role: "alert", class: "error" });
  /** @type {import("./table/state.js").Table} */
  const table = {
    state: createState(matchId, held, view),
    redraw,
    showError: (problem) => { error.textContent = message(problem); },
  };
  const state = table.state;
  const seats = seatsPart(state);
  const felt = feltPart(state);
  const hand = handPart(table);
  const log = logPart(state);
  const following = follower(table, log.show);
  const actions = actionsPart(table, following);
  const leaving = leavingPart(table, go);
  const results = resultsPart(state, leaving.rematch);
  root.replaceChildren(
    seats.share,
    h("div", { id: "board" }, [seats.seats, felt.element]),
    h("section", { id: "mine", "aria-label": t("your_hand") }, [hand.element, hand.selection,
      h("div", { class: "actions", role: "group", "aria-label": t("actions_label") }, [...actions.buttons, leaving.element]),
      actions.hintLine, error]),
    results.element,
    log.element,
  );

  // a button disabled only while a request of the page is under way: the focus goes back to it after (Hint, say)
  /** @type {HTMLElement | null} */
  let parked = null;

  /** Draw every part from the state, keeping the keyboard focus where it was. */
  function redraw() {
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusedCard = active?.dataset.card;
    keepSelectionInHand(state);
    for (const part of [seats, felt, hand, actions, leaving, results]) part.draw();
    const back = focusedCard ? hand.element.querySelector(`[data-card="${focusedCard}"]`) : null;
    // the parked button still has the focus, unless the focus moved elsewhere meanwhile
    const had = parked && (active === null || active === parked || active === document.body) ? parked : active;
    parked = null;
    const lost = had && (!had.isConnected || (had instanceof HTMLButtonElement && had.disabled));
    if (back instanceof HTMLElement) back.focus();
    else if (had && lost && state.busy && had.isConnected) parked = had;
    else if (had && lost) (hand.element.querySelector("button") ?? root).focus();
    else if (had && had !== active) had.focus();
  }

  // drawn at once, its buttons held (busy) until the log and the legal plays are in
  state.busy = true;
  redraw();
  // the events before the page came, in the log at once; then the live ones as they come
  await log.showHistory();
  const stopFollowing = following.start();
  const timer = setInterval(felt.tick, 250);
  state.legal = myTurn(state) && !state.stopped ? await api.legal(matchId, held.token).catch(() => null) : null;
  state.busy = false;
  redraw();
  return () => { state.stopped = true; stopFollowing(); clearInterval(timer); };
}

/**
 * The seat's view could not be read (the match is gone, say): why, and a way to forget the seat.
 * @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go @param {unknown} problem
 */
function showUnreadable(root, matchId, go, problem) {
  const forget = h("button", { type: "button", id: "forget", onclick: () => { forgetSeat(matchId); go("/"); } }, [t("forget")]);
  root.replaceChildren(h("p", { role: "alert", id: "error", class: "error" }, [message(problem)]),
    h("p", {}, [h("a", { href: "/" }, [t("home")]), " ", forget]));
}
