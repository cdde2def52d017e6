// @ts-check
/** A match's events in words, in the language in use. */

import { seatOf } from "./api.js";
import { describe } from "./cards.js";
import { t } from "./i18n.js";

/**
 * The sentence of one event, or "" for an event the log does not show.
 * @param {import("./api.js").MatchEvent} event
 * @param {(seat: number | undefined) => string} name a seat's name ("you" for the page's own seat)
 */
export function eventWords(event, name) {
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
