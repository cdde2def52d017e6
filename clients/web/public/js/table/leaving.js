// @ts-check
/**
 * Moving on from the match: Leave gives the seat up (a bot takes it) and goes to the lobby; Rematch goes to the next
 * match, seated at it.
 */

import * as api from "../api.js";
import { forgetSeat, keepSeat } from "../store.js";
import { button } from "./actions.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * @param {Table} table @param {(path: string) => void} go
 * @returns {{leaveButton: HTMLButtonElement, rematch: () => Promise<void>, draw: () => void}}
 */
export function leavingPart({ state, redraw, showError }, go) {
  /** A seat the server no longer has (a 4xx: gone, already left) is forgotten all the same. */
  async function leave() {
    state.busy = true;
    redraw();
    try {
      await api.leave(state.matchId, state.held.token);
    } catch (e) {
      if (!(e instanceof api.ApiError) || e.status >= 500) {
        state.busy = false;
        showError(e);
        redraw();
        return;
      }
    }
    forgetSeat(state.matchId);
    go("/");
  }

  async function rematch() {
    state.busy = true;
    redraw();
    try {
      const next = await api.rematch(state.matchId, state.held.token);
      keepSeat(next.match_id, { seat: next.seat, token: next.token, name: state.held.name });
      go(`/m/${encodeURIComponent(next.match_id)}`);
    } catch (e) {
      state.busy = false;
      showError(e);
      redraw();
    }
  }

  const leaveButton = button("leave", () => void leave());
  const draw = () => { leaveButton.disabled = state.busy; };
  return { leaveButton, rematch, draw };
}
