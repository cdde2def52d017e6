// @ts-check
/**
 * The live table on the first screen: the match to watch now (GET /v1/live: the one a moderator featured, else the
 * highest-rated live one), its players, how many watch, and a Watch button; nothing while no match is played.
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import "./words.js";

/** How often the live table is asked again, in ms. */
const REFRESH_MS = 30_000;

/**
 * @param {(path: string) => void} go
 * @returns {{element: HTMLElement, stop: () => void}}
 */
export function livePart(go) {
  const element = h("section", { id: "live", class: "panel", "aria-labelledby": "live-h", hidden: true });
  let shown = ""; // what it shows, in short: drawn again only when that changes
  const load = async () => {
    const found = await api.live().catch(() => null);
    const match = found?.match ?? null;
    const now = JSON.stringify(match && [match.match_id, match.spectators, match.hand_number, match.featured]);
    if (now === shown) return;
    shown = now;
    element.hidden = match === null;
    if (!match) return element.replaceChildren();
    const href = `/m/${encodeURIComponent(match.match_id)}/watch`;
    const players = match.seats.map((seat) => h("li", { "data-seat": seat.seat }, [
      seat.name ?? "?", seat.bot ? ` (${t(`bot_${seat.bot}`)})` : "", seat.rating === null ? "" : ` · ${seat.rating}`,
    ]));
    const facts = [t("live_hand", { n: match.hand_number }), t("n_watching", { n: match.spectators })];
    element.replaceChildren(
      h("h2", { id: "live-h" }, [t("live_title"), match.featured ? ` · ${t("live_featured")}` : ""]),
      h("ul", { id: "live-players", class: "players" }, players),
      h("p", { id: "live-facts" }, [facts.join(" · ")]),
      h("a", { id: "live-watch", class: "button primary", href, onclick: (/** @type {MouseEvent} */ e) => {
        e.preventDefault();
        go(href);
      } }, [t("watch")]),
    );
  };
  void load();
  const timer = setInterval(() => void load(), REFRESH_MS);
  return { element, stop: () => clearInterval(timer) };
}
