// @ts-check
/** The results: each hand's places and the running scores; at the match's end, its winner and Rematch. */

import { results } from "../board.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { namer } from "./state.js";

/** @typedef {import("./state.js").TableState} TableState */

/**
 * Drawn again only when what it shows changes (so a redraw leaves the focus on Rematch alone).
 * @param {TableState} state @param {() => Promise<void>} rematch
 * @returns {{element: HTMLElement, draw: () => void}}
 */
export function resultsPart(state, rematch) {
  const element = h("section", { id: "results" });
  let shown = ""; // what the section shows, in short
  const draw = () => {
    const { view } = state;
    const name = namer(state);
    const now = JSON.stringify([view.hands, view.status, view.winner, view.seats.map((s) => s.score)]);
    if (now !== shown) {
      shown = now;
      element.replaceChildren(...results(view, name));
      if (view.status === "finished") {
        element.append(h("p", { id: "winner" }, [view.winner === null ? t("no_winner") : t("winner", { name: name(view.winner) })]),
          h("button", { id: "rematch", type: "button", onclick: () => void rematch() }, [t("rematch")]));
      }
    }
    const again = element.querySelector("#rematch");
    if (again instanceof HTMLButtonElement) again.disabled = state.busy;
  };
  return { element, draw };
}
