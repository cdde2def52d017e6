// @ts-check
/** A match's events, the hint's reason and a rating's change in words, in the language in use. */

import { seatOf } from "./api.js";
import { describe, shown } from "./cards.js";
import { fill, has, language, t } from "./i18n.js";

/**
 * The sentence of one event, beginning with a capital, or "" for an event the log does not show.
 * @param {import("./api.js").MatchEvent} event
 * @param {(seat: number | undefined) => string} name a seat's name ("you" for the page's own seat)
 */
export function eventWords(event, name) {
  const words = sentence(event, name);
  return words.charAt(0).toLocaleUpperCase(language()) + words.slice(1); // a line of the log begins with a capital
}

/**
 * The event's sentence as its text has it ("you played…").
 * @param {import("./api.js").MatchEvent} event @param {(seat: number | undefined) => string} name
 */
function sentence(event, name) {
  const who = name(seatOf(event));
  switch (event.type) {
    case "played": {
      const what = describe(event.cards);
      return t("ev_played", { name: who, what: event.bomb ? t("bomb", { what }) : what });
    }
    case "passed": return t("ev_passed", { name: who });
    case "table_cleared": return t("ev_cleared", { name: name(event.leader) });
    case "went_out": return t("ev_out", { name: who, n: event.place });
    case "hand_started": return t("ev_started", { n: event.hand_number });
    case "hand_ended": return t("ev_hand_ended", {
      n: event.hand_number, places: event.places.map((s, i) => `${i + 1}. ${name(s)}`).join(", "),
    });
    case "match_ended":
      return event.winner === null ? t("ev_ended") : t("ev_won", { name: name(event.winner) });
    case "timed_out": return t("ev_timed_out", { name: who });
    case "seat_left": return t("ev_left", { name: who });
    case "seat_taken_over": return t("ev_taken", { name: who, bot: t(`bot_${event.bot}`) });
    case "seat_joined": return t("ev_joined", { name: event.name });
    case "match_abandoned": return t("ev_abandoned");
    case "match_cancelled": return t("ev_cancelled");
    case "rematch": return t("ev_rematch");
    default: return "";
  }
}

/**
 * Why the hint, in the language in use: written from its `explanation_code` (a template, then a reason) with the
 * page's own texts and the cards face up; the server's English `explanation` only for a sentence the page does not
 * know.
 * @param {import("./api.js").Hint} advice
 * @param {(seat: number | undefined) => string} name a seat's name
 * @returns {(string | Node)[]}
 */
export function hintWords(advice, name) {
  const code = advice.explanation_code;
  if (!code || !has(`hx_${code.template}`) || !has(`hr_${code.reason}`)) return [advice.explanation];
  const near = code.nearly_out;
  const danger = near
    ? t(near.cards_left === 1 ? "danger_one" : "danger", { name: name(near.seat), n: near.cards_left }) : "";
  // a piece kept together is named by its ranks ("run 5–8"); a play kept for later shows its cards
  const kept = !code.kept ? "" : code.reason === "keeps_together" ? describe(code.kept.cards) : shown(code.kept.cards);
  const params = { play: code.play ? shown(code.play.cards) : "", table: code.table ? shown(code.table.cards) : "", kept, danger };
  return [...fill(`hx_${code.template}`, params), ...fill(`hr_${code.reason}`, params), t("hx_end")];
}

/** A rating's change in words: "1500 → 1523 (+23)" (a minus sign for a loss). @param {number} before @param {number} after */
export const ratingWords = (before, after) =>
  t("rating_moved", { before, after, diff: `${after - before >= 0 ? "+" : "−"}${Math.abs(after - before)}` });
