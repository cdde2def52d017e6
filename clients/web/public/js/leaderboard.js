// @ts-check
/**
 * The leaderboards at /leaderboard: a table size (2, 3 or 4) and players or bots, best rating first, "More" pages;
 * a Watch link on each line whose player plays a match that may be watched now (the entry's `watch`).
 */

import * as api from "./api.js";
import { h, message } from "./dom.js";
import { t } from "./i18n.js";
import "./social/words.js";

/** @typedef {import("../../types/openapi").components["schemas"]["BoardEntry"]} BoardEntry */

/** A Watch link to the match the entry's player plays now, named after the player; none without one. @param {BoardEntry} e */
const watchLink = (e) => e.watch ? [" ", h("a", {
  class: "watch-link", href: `/m/${encodeURIComponent(e.watch)}/watch`, "aria-label": t("watch_name", { name: e.name }),
}, [t("watch")])] : [];

/** @param {HTMLElement} root */
export async function showLeaderboard(root) {
  const size = /** @type {HTMLSelectElement} */ (h("select", { id: "board-players" },
    [2, 3, 4].map((n) => h("option", { value: String(n) }, [t("n_players", { n })]))));
  const kind = /** @type {HTMLSelectElement} */ (h("select", { id: "board-kind" },
    [h("option", { value: "human" }, [t("board_humans")]), h("option", { value: "bot" }, [t("board_bots")])]));
  const list = h("ol", { id: "leaders", class: "history" });
  const status = h("p", { id: "board-status", role: "status" });
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const more = /** @type {HTMLButtonElement} */ (h("button", { id: "board-more", type: "button", hidden: true }, [t("more")]));
  /** @type {string | null} */
  let cursor = null;
  const load = async (/** @type {boolean} */ fresh) => {
    if (fresh) { cursor = null; list.replaceChildren(); }
    more.disabled = true;
    try {
      const page = await api.leaderboard(Number(size.value), kind.value === "bot" ? "bot" : "human", cursor);
      list.append(...page.entries.map((e) => h("li", { "data-name": e.name }, [
        `${e.rank ?? "—"}. `, h("a", { href: `/p/${encodeURIComponent(e.name)}` }, [e.name]),
        `: ${t("board_row", { rating: e.rating, games: e.games })}`, ...(e.provisional ? [" ", h("span", { class: "provisional" }, [t("provisional")])] : []),
        ...watchLink(e),
      ])));
      cursor = page.next_cursor;
      more.hidden = cursor === null;
      status.textContent = list.children.length === 0 ? t("board_empty") : "";
    } catch (e) {
      error.textContent = message(e);
    }
    more.disabled = false;
  };
  size.addEventListener("change", () => void load(true));
  kind.addEventListener("change", () => void load(true));
  more.addEventListener("click", () => void load(false));
  root.replaceChildren(h("section", { "aria-labelledby": "board-h", class: "panel" }, [
    h("h2", { id: "board-h" }, [t("leaderboard")]),
    h("p", {}, [h("label", {}, [t("table_size"), " ", size]), " ", h("label", {}, [t("board_kind"), " ", kind])]),
    list, status, more, error,
  ]));
  await load(true);
}
