// @ts-check
/** A hand's cards as dealt, seat by seat: public once the hand is over (a watcher's results, a seat's review). */

import { face, label, sorted } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import "./words.js";

/**
 * The hand's cards as dealt, seat by seat (the match's `hands[].dealt`, or `hand_shown`); nothing when not shown.
 * @param {string[][] | null | undefined} dealt @param {(seat: number) => string} name
 * @returns {HTMLElement[]}
 */
export function shownHands(dealt, name) {
  if (!dealt) return [];
  return [h("h3", { id: "shown-hands-title" }, [t("shown_hands")]),
    h("ul", { id: "shown-hands" }, dealt.map((cards, seat) => h("li", { "data-seat": seat }, [
      h("span", { class: "who" }, [t("hand_of", { name: name(seat) })]), " ",
      h("span", { class: "cards", "aria-label": sorted(cards).map(label).join(", ") }, [sorted(cards).map(face).join(" ")]),
    ])))];
}

/**
 * Before `next` (a seat's review between hands: its Next hand button): the cards as dealt of the match's hand
 * `number`, once public.
 * @param {HTMLElement} next @param {{hands: {hand_number: number, dealt?: string[][] | null}[]}} view
 * @param {number} number @param {(seat: number) => string} name
 */
export function showDealt(next, view, number, name) {
  document.getElementById("review-dealt")?.remove();
  next.before(h("div", { id: "review-dealt" }, shownHands(view.hands.find((hand) => hand.hand_number === number)?.dealt, name)));
}
