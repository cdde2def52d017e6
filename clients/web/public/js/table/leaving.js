// @ts-check
/**
 * Moving on from the match: Leave asks first ("Leave the match? Yes / No", inline, by keyboard too), then gives the
 * seat up (a bot takes it) and goes to the lobby; Rematch goes to the next match, seated at it.
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { forgetSeat, keepSeat } from "../store.js";
import { button } from "./actions.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * @param {Table} table @param {(path: string) => void} go
 * @returns {{element: HTMLElement, rematch: () => Promise<void>, draw: () => void}}
 */
export function leavingPart({ state, redraw, showError }, go) {
  /**
   * A seat the server no longer has (a 4xx: gone, already left) is forgotten all the same. From the moment the
   * seat is given up the page asks nothing more with its token (it is revoked once the leave is answered).
   */
  async function leave() {
    state.busy = true;
    state.stopped = true;
    redraw();
    try {
      await api.leave(state.matchId, state.held.token);
    } catch (e) {
      if (!(e instanceof api.ApiError) || e.status >= 500) {
        state.busy = false;
        state.stopped = false;
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

  /** The question shown (focus on "No") or put away (focus back on Leave). @param {boolean} asking */
  function ask(asking) {
    leaveButton.hidden = asking;
    confirm.hidden = !asking;
    (asking ? no : leaveButton).focus();
  }

  const leaveButton = button("leave", () => ask(true));
  const yes = button("leave_yes", () => void leave());
  const no = button("leave_no", () => ask(false));
  const question = h("span", { id: "leave-question" }, [t("leave_question")]);
  const confirm = h("span", { id: "leave-confirm", role: "group", "aria-labelledby": "leave-question", hidden: true,
    onkeydown: (/** @type {KeyboardEvent} */ e) => { if (e.key === "Escape") ask(false); } }, [question, yes, no]);
  yes.id = "leave-yes";
  no.id = "leave-no";
  const element = h("span", { id: "leaving" }, [leaveButton, confirm]);
  const draw = () => {
    leaveButton.disabled = state.busy;
    yes.disabled = state.busy;
  };
  return { element, rematch, draw };
}
