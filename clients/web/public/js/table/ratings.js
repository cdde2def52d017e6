// @ts-check
/** A rated match's end at the table: each rated seat's rating change, read from the player's kept matches. */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { signedIn } from "../session.js";
import { ratingWords } from "../words.js";

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
export async function showRatingChanges(state, box) {
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
