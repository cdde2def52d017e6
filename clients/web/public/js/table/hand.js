// @ts-check
/**
 * Your hand: its cards fanned out as buttons that pick and unpick them (arrow keys move along it), sorted by rank or
 * grouped by combination (a toggle, kept in localStorage), and the live line about the cards picked. A legal
 * selection that no larger legal play holds is played at once, unless the player turned that off.
 */

import { face, grouped, isRed, label, parts, sorted, suitOf } from "../cards.js";
import { h, setText } from "../dom.js";
import { t } from "../i18n.js";
import { cannotExtend, verdict } from "./state.js";

/** @typedef {import("./state.js").Table} Table */

const SORT_KEY = "tienlen.sort";
const AUTO_KEY = "tienlen.autoplay";
/** Milliseconds a selection that plays by itself is shown first (the player sees what is played). */
const AUTO_MS = 350;

/** Whether a selection that cannot be extended plays by itself (on unless the player turned it off). */
export const autoPlayOn = () => localStorage.getItem(AUTO_KEY) !== "off";
/** @param {boolean} on */
export const setAutoPlay = (on) => localStorage.setItem(AUTO_KEY, on ? "on" : "off");

/**
 * A card's name as its button says it: its spoken name, after the rank shown on it when that name lacks it ("A, ace of
 * spades"; "3 of spades" as it is), so a name spoken to voice control matches what is seen (WCAG 2.5.3).
 * @param {string} card
 */
function buttonLabel(card) {
  const { rank } = parts(card);
  return label(card).split(/\s+/).includes(rank) ? label(card) : `${rank}, ${label(card)}`;
}

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
 * @returns {{element: HTMLElement, selection: HTMLElement, sortToggle: HTMLButtonElement, draw: () => void}}
 */
export function handPart({ state, redraw }) {
  const hand = h("div", { id: "hand", role: "group", "aria-label": t("your_hand") });
  const selection = h("p", { id: "selection", "aria-live": "polite" });
  let byGroup = localStorage.getItem(SORT_KEY) === "group";
  const sortToggle = /** @type {HTMLButtonElement} */ (h("button", {
    id: "sort", type: "button", class: "small", "aria-pressed": String(byGroup), onclick: () => {
      byGroup = !byGroup;
      localStorage.setItem(SORT_KEY, byGroup ? "group" : "rank");
      sortToggle.setAttribute("aria-pressed", String(byGroup));
      redraw();
    },
  }, [t("sort_groups")]));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let auto;
  /** @param {string} card */
  const toggle = (card) => {
    if (state.selected.has(card)) state.selected.delete(card);
    else state.selected.add(card);
    clearTimeout(auto);
    redraw();
    if (autoPlayOn() && cannotExtend(state)) {
      const picked = [...state.selected].sort().join(" ");
      auto = setTimeout(() => {
        const play = document.getElementById("play");
        // still the same selection, still playable: played as if Play were pressed
        if ([...state.selected].sort().join(" ") === picked && cannotExtend(state) && play instanceof HTMLButtonElement && !play.disabled) play.click();
      }, AUTO_MS);
    }
  };
  const draw = () => {
    const groups = byGroup ? grouped(state.view.cards) : [sorted(state.view.cards)];
    const count = state.view.cards.length;
    let i = 0;
    hand.replaceChildren(...groups.flatMap((group) => group.map((card, at) => {
      const tilt = count > 1 ? (i++ / (count - 1) - 0.5) : (i++, 0); // -0.5 … 0.5 across the fan
      return h("button", {
        type: "button", class: `card${isRed(card) ? " red" : ""}${at === 0 && byGroup ? " group-start" : ""}`,
        "data-card": card, "data-suit": suitOf(card), "aria-label": buttonLabel(card),
        "aria-pressed": state.selected.has(card) ? "true" : "false", style: `--tilt: ${tilt.toFixed(3)}; --drop: ${(tilt * tilt).toFixed(3)}`,
        onclick: () => toggle(card),
        onkeydown: (/** @type {KeyboardEvent} */ e) => moveFocus(hand, e),
      }, [face(card)]);
    })));
    setText(selection, verdict(state).text);
  };
  return { element: hand, selection, sortToggle, draw };
}
