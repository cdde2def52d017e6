// @ts-check
/**
 * Between the hands of a match: the server deals the next hand as soon as one ends; the page holds it back and
 * shows the hand's places, the scores so far and the hands as dealt (their module loaded then) until the player
 * chooses Next hand. The last hand goes straight on to the final score card (table/results.js).
 */

import * as api from "../api.js";
import { scoreTable } from "../board.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { namer } from "./state.js";

/** @typedef {import("./state.js").Table} Table */

/**
 * @param {Table} table @param {() => void} [onNext] after Next hand (the focus goes to the hand)
 * @returns {{element: HTMLElement, draw: () => void, focus: () => void}}
 */
export function reviewPart({ state, redraw }, onNext) {
  const element = h("section", { id: "review", "aria-labelledby": "review-title", hidden: true });
  /** @type {(() => void) | null} */
  let resume = null;
  let shown = 0;

  state.betweenHands = async (ended) => {
    // the view right after the hand: whether the match goes on, and its scores so far
    const fresh = await api.view(state.matchId, state.held.token).catch(() => null);
    if (!fresh || state.stopped || fresh.status !== "playing" || fresh.hand_number <= ended.hand_number) return;
    state.review = { ended, view: fresh };
    redraw();
    await new Promise((resolve) => { resume = () => resolve(undefined); });
  };

  const next = h("button", { id: "next-hand", type: "button", class: "primary", onclick: () => {
    state.review = null;
    resume?.();
    resume = null;
    redraw();
    onNext?.();
  } }, [t("next_hand")]);

  const draw = () => {
    const review = state.review;
    element.hidden = review === null;
    if (!review || shown === review.ended.hand_number) return;
    shown = review.ended.hand_number;
    const name = namer(state);
    const { ended, view } = review;
    const planned = view.rules.hands;
    void import("../social/shown.js").then((m) => m.showDealt(next, view, ended.hand_number, name));
    element.replaceChildren(
      h("h2", { id: "review-title" }, [t("review_title", { n: ended.hand_number })]),
      h("p", { class: "review-of" }, [ended.hand_number < planned ? t("review_of", { n: ended.hand_number, of: planned })
        : t("review_extra")]),
      h("ol", { id: "review-places", class: "places" }, ended.places.map((seat) => h("li", { "data-seat": seat }, [
        h("span", { class: "who" }, [name(seat)]), " ",
        h("span", { class: "pts" }, [t("points_won", { n: ended.points[seat] ?? 0 })]),
      ]))),
      scoreTable(view, name, { id: "review-scores", upTo: ended.hand_number }),
      // the server dealt the next hand already: a clock of yours counts while you look
      ...(view.turn === view.seat && view.turn_deadline ? [h("p", { id: "review-clock" }, [t("review_clock")])] : []),
      next,
    );
    next.focus(); // a new review: Next hand has the focus
  };
  /** Next hand takes the focus back when the focus is adrift (on nothing, or on a part put away). */
  const focus = () => {
    const at = document.activeElement;
    if (!(at instanceof HTMLElement) || at === document.body || at.id === "app" || at.getClientRects().length === 0) next.focus();
  };
  return { element, draw, focus };
}
