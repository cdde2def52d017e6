// @ts-check
/** The log: what happened at the match, in words, newest first. */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { eventWords } from "../words.js";
import { namer } from "./state.js";

/** @typedef {import("./state.js").ShownState} ShownState */
/** @typedef {import("../api.js").MatchEvent} MatchEvent */

/**
 * `show` writes one event in the log; `showHistory` writes the events before the page came, at once, and only then
 * makes the log a live region: each new entry is announced, not the history.
 * @param {ShownState} state
 * @returns {{element: HTMLElement, show: (event: MatchEvent) => void, showHistory: () => Promise<void>}}
 */
export function logPart(state) {
  // scrolled when long: focusable, so the keyboard scrolls it too
  const log = h("ol", { id: "log", reversed: true, "aria-relevant": "additions", tabindex: 0, "aria-labelledby": "log-h" });
  const element = h("section", { id: "events", "aria-labelledby": "log-h" }, [h("h2", { id: "log-h" }, [t("log")]), log]);
  /** @param {MatchEvent} event */
  const show = (event) => {
    const words = eventWords(event, namer(state));
    if (words) log.prepend(h("li", { "data-type": event.type, "data-seq": event.seq, "data-seat": api.seatOf(event) ?? false }, [words]));
  };
  const showHistory = async () => {
    for (const event of await api.eventsSoFar(state.matchId, 0, state.view.last_seq).catch(() => [])) show(event);
    log.setAttribute("aria-live", "polite");
  };
  return { element, show, showHistory };
}
