// @ts-check
/**
 * The review of a finished match on its replay (GET /v1/matches/{id}/review), loaded only when asked for: the
 * grade of each move and, where a better one was found, that move drawn on the cards with the hint's words.
 * The first ask queues the review (202 with its progress): this asks again every second until it is done.
 */

import * as api from "./api.js";
import { faceUp, sorted } from "./cards.js";
import { h, message, setText } from "./dom.js";
import { t } from "./i18n.js";
import "./replay_words.js";

/** @typedef {import("../../types/openapi").components["schemas"]["Review"]} Review */
/** @typedef {import("../../types/openapi").components["schemas"]["ReviewDecision"]} Decision */

const POLL_MS = 1000;

/**
 * Fetch the review, saying its progress in `status` until it is done; the decisions by "hand/index".
 * @param {string} matchId @param {HTMLElement} status
 * @returns {Promise<Map<string, Decision>>}
 */
export async function loadReview(matchId, status) {
  for (;;) {
    const found = /** @type {Review | {status: string, progress: {done: number, total: number}}} */ (
      await api.call("get", "/v1/matches/{match_id}/review", { path: { match_id: matchId } }));
    if ("seats" in found) {
      setText(status, "");
      return new Map(found.seats.flatMap((seat) => seat.decisions).map((d) => [`${d.hand_number}/${d.index}`, d]));
    }
    setText(status, t("review_pending", { done: found.progress.done, total: found.progress.total }));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * What the review says of the move just made: its grade and, when graded below good, the better move and why.
 * @param {Decision | undefined} decision @returns {(HTMLElement | string)[]}
 */
export function reviewLine(decision) {
  if (!decision) return [];
  const grade = h("span", { class: `review-grade grade-${decision.grade}` }, [t(`review_${decision.grade}`)]);
  if (decision.grade === "good" || decision.grade === "forced") return [grade];
  const better = decision.best.type === "pass" ? [t("review_pass")]
    : sorted(decision.best.cards).map((c) => faceUp(c));
  return [grade, " ", h("span", { class: "review-better" }, [t("review_better"), " ", h("span", { class: "faces" }, better)]),
    h("p", { class: "review-why" }, [decision.explanation ?? ""])];
}

/**
 * The review's button and status line for the replay page; `onReady` gets the decisions once loaded.
 * @param {string} matchId @param {(decisions: Map<string, Decision>) => void} onReady @returns {HTMLElement}
 */
export function reviewControls(matchId, onReady) {
  const status = h("span", { id: "review-status", role: "status" });
  const button = /** @type {HTMLButtonElement} */ (h("button", {
    id: "review-button", type: "button",
    onclick: async () => {
      button.disabled = true;
      try {
        onReady(await loadReview(matchId, status));
        button.hidden = true;
      } catch (e) {
        setText(status, message(e));
        button.disabled = false;
      }
    },
  }, [t("review_button")]));
  return h("p", { id: "review-controls" }, [button, " ", status]);
}
