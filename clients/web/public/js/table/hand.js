// @ts-check
/**
 * Your hand: its cards as buttons that pick and unpick them (arrow keys move along it), and the live line about the
 * cards picked.
 */

import { face, isRed, label, sorted, suitOf } from "../cards.js";
import { h, setText } from "../dom.js";
import { t } from "../i18n.js";
import { verdict } from "./state.js";

/** @typedef {import("./state.js").Table} Table */

/** Arrow keys, Home and End move along the hand. @param {HTMLElement} hand @param {KeyboardEvent} event */
function moveFocus(hand, event) {
  const buttons = [...hand.querySelectorAll("button")];
  const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (event.target));
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  buttons[(to + buttons.length) % buttons.length]?.focus();
}

/**
 * @param {Table} table
 * @returns {{element: HTMLElement, selection: HTMLElement, draw: () => void}}
 */
export function handPart({ state, redraw }) {
  const hand = h("div", { id: "hand", role: "group", "aria-label": t("your_hand") });
  const selection = h("p", { id: "selection", "aria-live": "polite" });
  /** @param {string} card */
  const toggle = (card) => {
    if (state.selected.has(card)) state.selected.delete(card);
    else state.selected.add(card);
    redraw();
  };
  const draw = () => {
    hand.replaceChildren(...sorted(state.view.cards).map((card) => h("button", {
      type: "button", class: isRed(card) ? "card red" : "card", "data-card": card, "data-suit": suitOf(card), "aria-label": `${face(card)}, ${label(card)}`, // A: the name holds the face seen (WCAG 2.5.3, axe)
      "aria-pressed": state.selected.has(card) ? "true" : "false",
      onclick: () => toggle(card),
      onkeydown: (/** @type {KeyboardEvent} */ e) => moveFocus(hand, e),
    }, [face(card)])));
    setText(selection, verdict(state).text);
  };
  return { element: hand, selection, draw };
}
