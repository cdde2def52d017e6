// @ts-check
/**
 * A watcher's results: at each hand's end its places and points with the scores so far; at the match's end the
 * final score card (the winner, the places, each hand). Drawn again only when what it shows changes.
 */

import { results, scoreTable, standings } from "../board.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { shownHands } from "../social/shown.js";
import { namer } from "../table/state.js";

/** @typedef {import("./state.js").WatchState} WatchState */

/**
 * @param {WatchState} state
 * @returns {{element: HTMLElement, draw: () => void}}
 */
export function watchResultPart(state) {
  const element = h("section", { id: "watch-result", hidden: true });
  let shown = "";
  const draw = () => {
    const { view, ended } = state;
    const name = namer(state);
    const over = view.status === "finished";
    const now = over ? `over:${JSON.stringify(view.seats.map((s) => s.score))}` : ended ? `hand:${ended.ended.hand_number}` : "";
    if (now === shown) return;
    shown = now;
    element.hidden = now === "";
    element.classList.toggle("score-card", over);
    if (over) {
      element.replaceChildren(
        h("h2", { id: "final-title" }, [t("final_title")]),
        h("p", { id: "winner" }, [view.winner === null ? t("no_winner") : t("winner", { name: name(view.winner) })]),
        h("ol", { id: "standings", class: "places" }, standings(view).map((s) => h("li", { "data-seat": s.seat }, [
          h("span", { class: "who" }, [name(s.seat)]), " ", h("span", { class: "pts" }, [t("final_points", { n: s.score })]),
        ]))),
        ...results(view, name),
        ...shownHands(view.hands.at(-1)?.dealt, name),
        h("p", {}, [h("a", { id: "replay-link", href: `/m/${encodeURIComponent(state.matchId)}/replay` }, [t("watch_replay")])]),
      );
    } else if (ended) {
      element.replaceChildren(
        h("h2", { id: "hand-result-title" }, [t("review_title", { n: ended.ended.hand_number })]),
        h("ol", { id: "hand-places", class: "places" }, ended.ended.places.map((seat) => h("li", { "data-seat": seat }, [
          h("span", { class: "who" }, [name(seat)]), " ",
          h("span", { class: "pts" }, [t("points_won", { n: ended.ended.points[seat] ?? 0 })]),
        ]))),
        scoreTable(ended.view, name, { id: "hand-scores", upTo: ended.ended.hand_number }),
        ...shownHands(ended.view.hands.find((hand) => hand.hand_number === ended.ended.hand_number)?.dealt, name),
      );
    }
  };
  return { element, draw };
}
