// @ts-check
/**
 * The results: each hand's places and the running scores; at the match's end, its winner, each rated seat's rating
 * change (a rated match) and Rematch.
 */

import * as api from "../api.js";
import { results, standings } from "../board.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { signedIn } from "../session.js";
import { ratingWords } from "../words.js";
import { namer } from "./state.js";

/** @typedef {import("./state.js").TableState} TableState */

/** Reads of the player's matches before the rating change is given up (the match is kept right after its end). */
const TRIES = 20;
const PAUSE_MS = 500;
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The finished match as the seat's player's list of matches keeps it (GET /v1/players/{name}/matches), with each
 * seat's rating before and after; null when it is not there after a few seconds, or the page left the table.
 * @param {TableState} state @returns {Promise<api.KeptMatch | null>}
 */
async function keptMatch(state) {
  const mine = state.view.seats[state.view.seat];
  const name = mine?.account && mine.name ? mine.name : signedIn()?.name;
  for (let tries = 0; name && tries < TRIES && !state.stopped; tries++) {
    if (tries) await sleep(PAUSE_MS);
    try {
      const found = (await api.playerMatches(name, null)).matches.find((m) => m.match_id === state.matchId);
      if (found) return found;
    } catch {
      // asked again after the pause
    }
  }
  return null;
}

/**
 * Fill `box` with the rating change of each rated seat of the finished match ("Ann: 1500 → 1523 (+23)"); while it
 * is read, "Updating ratings…"; when it cannot be had, where to find it (the player's profile).
 * @param {TableState} state @param {HTMLElement} box
 */
async function showRatingChanges(state, box) {
  box.replaceChildren(h("p", { id: "rating-status" }, [t("ratings_pending")]));
  const kept = await keptMatch(state);
  if (state.stopped) return;
  const rated = kept?.rated ? kept.seats.filter((s) => s.rating_before !== null && s.rating_after !== null) : [];
  if (!kept || rated.length === 0) {
    const mine = state.view.seats[state.view.seat]?.name;
    box.replaceChildren(h("p", { id: "rating-status" }, [t("ratings_unavailable")]),
      ...(mine ? [h("p", {}, [h("a", { href: `/p/${encodeURIComponent(mine)}` }, [t("your_profile")])])] : []));
    return;
  }
  box.replaceChildren(
    h("h3", { id: "rating-changes-h" }, [t("rating_changes")]),
    h("ul", { id: "rating-list", "aria-labelledby": "rating-changes-h" }, rated.map((s) => h("li", { "data-seat": s.seat }, [
      t("seat_rating", {
        name: s.seat === kept.seat ? `${s.name} (${t("you")})` : s.name ?? "—",
        change: ratingWords(/** @type {number} */ (s.rating_before), /** @type {number} */ (s.rating_after)),
      }),
    ]))),
  );
}

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
          void showRatingChanges(state, ratings);
        }
      }
    }
    const again = element.querySelector("#rematch");
    if (again instanceof HTMLButtonElement) again.disabled = state.busy;
  };
  return { element, draw };
}
