// @ts-check
/**
 * A seat that has gone out of the hand watches the rest of it: the other seats' plays come quicker (table/follow.js)
 * and Skip shows them at once, then the hand's review. The line above Skip says so to screen readers as it shows.
 */

import { h, setText } from "../dom.js";
import { t } from "../i18n.js";
import "./watch_words.js"; // its words, loaded with it

/** @typedef {import("./state.js").ShownState} ShownState */

/**
 * @typedef {object} SkipPart
 * @property {HTMLElement} element @property {HTMLButtonElement} button @property {() => void} draw
 * @property {() => boolean} shown whether Skip is on screen
 */

/**
 * @param {ShownState & {review?: unknown}} state @param {() => void} skip the follower's Skip
 * @returns {SkipPart}
 */
export function skipPart(state, skip) {
  const line = h("span", { id: "out-line", role: "status" });
  const button = /** @type {HTMLButtonElement} */ (h("button", { id: "skip", type: "button", class: "small", onclick: skip },
    [t("skip_hand")]));
  const element = h("div", { id: "out-watch", hidden: true }, [line, " ", button]);
  const draw = () => {
    const watching = state.out && state.view.status === "playing" && !state.review;
    element.hidden = !watching;
    button.hidden = state.skipping;
    setText(line, watching ? t(state.skipping ? "out_skipping" : "out_quicker") : "");
  };
  return { element, button, draw, shown: () => !element.hidden && !button.hidden };
}
