// @ts-check
/**
 * A seat that has gone out of the hand watches the rest of it: the other seats' plays come quicker (table/follow.js)
 * and Skip shows them at once, then the hand's review. The line above Skip says so to screen readers as it shows.
 */

import { h, setText } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("./state.js").ShownState} ShownState */

/**
 * @param {ShownState & {review?: unknown}} state @param {() => void} skip the follower's Skip
 * @returns {{element: HTMLElement, button: HTMLButtonElement, draw: () => void}}
 */
export function skipPart(state, skip) {
  const line = h("span", { id: "out-line", role: "status" });
  const button = /** @type {HTMLButtonElement} */ (h("button", { id: "skip", type: "button", class: "small", onclick: skip },
    [t("skip_hand")]));
  const element = h("section", { id: "out-watch", "aria-label": t("out_label"), hidden: true }, [line, " ", button]);
  const draw = () => {
    const watching = state.out && state.view.status === "playing" && !state.review;
    element.hidden = !watching;
    button.hidden = state.skipping;
    setText(line, watching ? t(state.skipping ? "out_skipping" : "out_quicker") : "");
  };
  return { element, button, draw };
}
