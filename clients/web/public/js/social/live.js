// @ts-check
/**
 * The live table on the first screen: the match to watch now (GET /v1/live: the one a moderator featured, else the
 * highest-rated live one), its players, how many watch, and a Watch button; below it "More live tables" (the
 * answer's `others`, best first): each one's players, table size, hand and spectators, and a Watch link. Nothing
 * while no match is played.
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import "./words.js";

/** How often the live table is asked again, in ms. */
const REFRESH_MS = 30_000;

/** @typedef {import("../../../types/openapi").components["schemas"]["LiveMatch"]} LiveMatch */

/** The page that watches a match. @param {string} matchId */
const watchPath = (matchId) => `/m/${encodeURIComponent(matchId)}/watch`;

/** A link's click that shows ``href`` in the page. @param {(path: string) => void} go @param {string} href */
const follow = (go, href) => (/** @type {MouseEvent} */ e) => {
  e.preventDefault();
  go(href);
};

/**
 * "More live tables": a heading and a short list, one line a match (its players, table size, hand, spectators) with
 * a Watch link named after its players.
 * @param {LiveMatch[]} others @param {(path: string) => void} go @returns {HTMLElement[]}
 */
function moreTables(others, go) {
  const lines = others.map((match) => {
    const names = match.seats.map((seat) => seat.name ?? "?").join(", ");
    const href = watchPath(match.match_id);
    const facts = [t("n_players", { n: match.seats.length }), t("live_hand", { n: match.hand_number }),
      t("n_watching", { n: match.spectators })];
    return h("li", { "data-match": match.match_id }, [
      h("span", { class: "live-names" }, [names]), ` · ${facts.join(" · ")} `,
      h("a", { class: "watch-link", href, "aria-label": t("watch_players", { names }), onclick: follow(go, href) },
        [t("watch")]),
    ]);
  });
  return [h("h3", { id: "live-more-h" }, [t("live_more")]),
    h("ul", { id: "live-others", "aria-labelledby": "live-more-h" }, lines)];
}

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
    const others = match === null ? [] : found?.others ?? [];
    const now = JSON.stringify([match, ...others].map((m) => m && [m.match_id, m.spectators, m.hand_number, m.featured]));
    if (now === shown) return;
    shown = now;
    element.hidden = match === null;
    if (!match) return element.replaceChildren();
    const href = watchPath(match.match_id);
    const players = match.seats.map((seat) => h("li", { "data-seat": seat.seat }, [
      seat.name ?? "?", seat.bot ? ` (${t(`bot_${seat.bot}`)})` : "", seat.rating === null ? "" : ` · ${seat.rating}`,
    ]));
    const facts = [t("live_hand", { n: match.hand_number }), t("n_watching", { n: match.spectators })];
    element.replaceChildren(
      h("h2", { id: "live-h" }, [t("live_title"), match.featured ? ` · ${t("live_featured")}` : ""]),
      h("ul", { id: "live-players", class: "players" }, players),
      h("p", { id: "live-facts" }, [facts.join(" · ")]),
      h("a", { id: "live-watch", class: "button primary", href, onclick: follow(go, href) }, [t("watch")]),
      ...(others.length === 0 ? [] : moreTables(others, go)),
    );
  };
  void load();
  const timer = setInterval(() => void load(), REFRESH_MS);
  return { element, stop: () => clearInterval(timer) };
}
