// @ts-check
/**
 * The tournaments page at /tournaments: three lists (upcoming, running, finished: GET /v1/tournaments?status=) with
 * each one's name, format, table size, entrants of the most, start, rated and bots; Join / Withdraw for the account
 * signed in (PUT / DELETE …/entry); and a small form to create one (POST /v1/tournaments), its refusals in words.
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { dateText } from "../profile.js";
import { signedIn } from "../session.js";
import { createForm } from "./create.js";
import { refusalText } from "./words.js";

/** @typedef {import("../../../types/openapi").components["schemas"]["TournamentSummary"]} Summary */
/** @typedef {"open" | "running" | "finished"} Listed */

/** What a tournament is, in short: format, table size, entrants, start, rated, bots. @param {Summary} one */
export const factsOf = (one) => [
  t(`t_format_${one.format}`), t("t_tables_of", { n: one.players }),
  t("t_entrants", { n: one.entrants, max: one.max_entrants }),
  ...(one.status === "open" ? [one.starts_at ? t("t_starts", { when: dateText(one.starts_at) }) : t("t_when_full")] : []),
  one.rated ? t("t_rated") : t("t_casual"), one.bots ? t("t_bots_in") : t("t_no_bots"),
].join(" · ");

/**
 * @param {HTMLElement} root @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the view (nothing to stop)
 */
export async function showTournamentList(root, go) {
  const session = signedIn();
  const error = h("p", { id: "error", role: "alert", class: "error" });
  /** One list (a heading, its items, More while pages follow). @param {Listed} status @param {string} title */
  const section = (status, title) => {
    const list = h("ul", { id: `t-${status}`, class: "history" });
    const more = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "small", hidden: true }, [t("t_more")]));
    /** @type {string | null} */
    let cursor = null;
    const load = async (/** @type {boolean} */ fresh) => {
      if (fresh) cursor = null;
      try {
        // with the account's token each says whether it entered
        const page = await api.call("get", "/v1/tournaments",
          { query: { status, limit: 20, ...(cursor ? { cursor } : {}) }, token: session?.token });
        const items = page.tournaments.map((one) => item(one));
        if (fresh) list.replaceChildren(...(items.length ? items : [h("li", {}, [t("t_none")])]));
        else list.append(...items);
        cursor = page.next_cursor;
        more.hidden = cursor === null;
      } catch (e) {
        error.textContent = refusalText(e);
      }
    };
    more.addEventListener("click", () => void load(false));
    const element = h("section", { "aria-labelledby": `t-${status}-h`, class: "panel" }, [
      h("h3", { id: `t-${status}-h` }, [title]), list, more,
    ]);
    return { element, load };
  };
  /** One tournament of a list, with Join or Withdraw while it is open. @param {Summary} one */
  const item = (one) => {
    const href = `/t/${encodeURIComponent(one.tournament_id)}`;
    const link = h("a", { href, onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); go(href); } }, [one.name]);
    const parts = [link, " · ", h("span", { class: "t-facts" }, [factsOf(one)])];
    if (session && one.status === "open") {
      const entered = one.entered === true;
      const button = h("button", { type: "button", class: "small", "data-action": entered ? "withdraw" : "join",
        "aria-label": `${entered ? t("t_withdraw") : t("t_join")}: ${one.name}`,
        onclick: async () => {
          try {
            const path = { tournament_id: one.tournament_id };
            if (entered) await api.call("delete", "/v1/tournaments/{tournament_id}/entry", { path, token: session.token });
            else await api.call("put", "/v1/tournaments/{tournament_id}/entry", { path, token: session.token });
            await reload();
          } catch (e) {
            error.textContent = refusalText(e);
          }
        } }, [entered ? t("t_withdraw") : t("t_join")]);
      parts.push(" ", button);
    }
    return h("li", { "data-tournament": one.tournament_id }, parts);
  };
  const lists = [section("open", t("t_upcoming")), section("running", t("t_running")), section("finished", t("t_finished"))];
  /** Every list again. */
  const reload = async () => {
    error.textContent = "";
    await Promise.all(lists.map((one) => one.load(true)));
  };
  const create = session
    ? createForm(session.token, (id) => go(`/t/${encodeURIComponent(id)}`))
    : h("p", {}, [h("a", { href: "/account?next=/tournaments" }, [t("t_sign_in")])]);
  root.replaceChildren(h("section", { "aria-labelledby": "t-h", class: "panel" }, [
    h("h2", { id: "t-h" }, [t("t_title")]), error, ...lists.map((one) => one.element),
  ]), create);
  await reload();
  return () => {};
}
