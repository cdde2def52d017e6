// @ts-check
/**
 * The results: each hand's places and the running scores; at the match's end, its winner, each rated seat's rating
 * change (a rated match: table/ratings.js, loaded then) and Rematch.
 */

import { results, standings } from "../board.js";
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
  // the rating changes, announced when they come; read once, kept across the section's redraws
  const ratings = h("div", { id: "rating-changes", "aria-live": "polite" });
  let asked = false;
  let shown = ""; // what the section shows, in short
  const draw = () => {
    const { view } = state;
    const name = namer(state);
    const now = JSON.stringify([view.hands, view.status, view.winner, view.seats.map((s) => s.score)]);
    if (now !== shown) {
      shown = now;
      element.replaceChildren(...results(view, name));
      element.classList.toggle("score-card", view.status === "finished");
      if (view.status === "finished") {
        // the final score card: the result first, the places and points, then each hand (results()) below
        element.prepend(h("h2", { id: "final-title" }, [t("final_title")]),
          h("p", { id: "winner" }, [view.winner === null ? t("no_winner") : t("winner", { name: name(view.winner) })]),
          h("ol", { id: "standings", class: "places" }, standings(view).map((s) => h("li", { "data-seat": s.seat }, [
            h("span", { class: "who" }, [name(s.seat)]), " ",
            h("span", { class: "pts" }, [t("final_points", { n: s.score })]),
          ]))));
        element.append(
          ...(view.rated ? [ratings] : []),
          h("button", { id: "rematch", type: "button", onclick: () => void rematch() }, [t("rematch")]));
        if (view.rated && !asked) {
          asked = true;
          void import("./ratings.js").then((m) => m.showRatingChanges(state, ratings));
        }
      }
    }
    const again = element.querySelector("#rematch");
    if (again instanceof HTMLButtonElement) again.disabled = state.busy;
  };
  return { element, draw };
}
