// @ts-check
/**
 * The two lists of the moderators' page, each a page at a time with More: the open reports (GET
 * /v1/moderation/reports), each with Remove message (DELETE /v1/matches/{id}/chat/{seq}) and Dismiss (DELETE
 * /v1/moderation/reports/{id}), and the audit list of the moderators' acts, newest first (GET /v1/moderation/audit).
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { has, language, t } from "../i18n.js";
import "./words.js";

/** @typedef {import("../../../types/openapi").components["schemas"]["OpenReport"]} OpenReport */
/** @typedef {import("../../../types/openapi").components["schemas"]["AuditAct"]} AuditAct */

/** How many of a list one page reads. */
const PAGE = 20;

/** A time as the reader reads it. @param {string} when */
export const whenText = (when) =>
  new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(when));

/**
 * @typedef {object} Desk what the lists share with the page
 * @property {string} token the moderator token
 * @property {(words: string) => void} done says an act was done (and reads the lists again)
 * @property {(e: unknown) => void} refused says a refusal in words
 */

/**
 * A list read a page at a time: `fetch` reads the page after `cursor`, `item` draws one entry.
 * @template T
 * @param {string} id @param {string} empty the words of an empty list
 * @param {(cursor: string | null) => Promise<{items: T[], next: string | null}>} fetch
 * @param {(entry: T, index: number) => HTMLElement} item
 * @param {(e: unknown) => void} refused
 */
function paged(id, empty, fetch, item, refused) {
  const list = h("ul", { id, class: "mod-list" });
  const more = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "small", id: `${id}-more`, hidden: true }, [t("mod_more")]));
  /** @type {string | null} */
  let cursor = null;
  let shown = 0;
  /** Read the first page again (`fresh`) or the next one. @param {boolean} fresh */
  const load = async (fresh) => {
    try {
      const page = await fetch(fresh ? null : cursor);
      if (fresh) { list.replaceChildren(); shown = 0; }
      const items = page.items.map((entry) => item(entry, shown++));
      if (fresh && items.length === 0) list.replaceChildren(h("li", { class: "mod-empty" }, [empty]));
      else list.append(...items);
      cursor = page.next;
      more.hidden = cursor === null;
      if (!fresh) /** @type {HTMLElement | undefined} */ (items[0]?.querySelector("a, button") ?? undefined)?.focus();
    } catch (e) {
      refused(e);
    }
  };
  more.addEventListener("click", () => void load(false));
  return { list, more, load };
}

/** The open reports, oldest first, with what to do about each. @param {Desk} desk */
export function reportsPart(desk) {
  const heading = h("h3", { id: "mod-reports-h", tabindex: "-1" }, [t("mod_reports")]);
  /** Do `act` for a report, then say `words` and read the lists again. @param {HTMLElement} li @param {() => Promise<unknown>} act @param {string} words */
  const acting = async (li, act, words) => {
    for (const button of li.querySelectorAll("button")) button.disabled = true;
    try {
      await act();
      desk.done(words);
      heading.focus(); // the report has left the list
    } catch (e) {
      desk.refused(e);
      for (const button of li.querySelectorAll("button")) button.disabled = false;
    }
  };
  /** @param {OpenReport} report @param {number} index */
  const item = (report, index) => {
    const said = report.message;
    const quote = h("blockquote", { id: `mod-text-${index}`, class: "mod-text" }, [said.text, ...(said.phrase ? [" ", t("mod_phrase")] : [])]);
    const li = h("li", { class: "mod-report", "data-id": report.id, "data-match": report.match_id, "data-seq": String(said.seq) });
    const remove = h("button", { type: "button", class: "small mod-remove", "aria-describedby": quote.id }, [t("mod_remove")]);
    const dismiss = h("button", { type: "button", class: "small mod-dismiss", "aria-describedby": quote.id }, [t("mod_dismiss")]);
    remove.addEventListener("click", () => void acting(li, () => api.call("delete", "/v1/matches/{match_id}/chat/{seq}",
      { path: { match_id: report.match_id, seq: said.seq }, token: desk.token }), t("mod_removed")));
    dismiss.addEventListener("click", () => void acting(li, () => api.call("delete", "/v1/moderation/reports/{report_id}",
      { path: { report_id: report.id }, token: desk.token }), t("mod_dismissed")));
    li.append(
      h("p", {}, [t("mod_said", { name: said.from.account ?? said.from.name, room: t(`mod_room_${said.room}`) })]),
      quote,
      h("p", {}, [
        h("a", { href: `/m/${encodeURIComponent(report.match_id)}/watch` }, [t("mod_match", { id: report.match_id })]), " · ",
        t("mod_reported", { name: report.reporter, when: whenText(report.at) }),
      ]),
      ...(report.why ? [h("p", {}, [t("mod_why", { why: report.why })])] : []),
      h("p", {}, [remove, " ", dismiss]),
    );
    return li;
  };
  const { list, more, load } = paged("mod-reports", t("mod_no_reports"), async (cursor) => {
    const page = await api.call("get", "/v1/moderation/reports", { query: { limit: PAGE, ...(cursor ? { cursor } : {}) }, token: desk.token });
    return { items: page.reports, next: page.next_cursor };
  }, item, desk.refused);
  const element = h("section", { "aria-labelledby": heading.id, class: "panel" }, [heading, list, more]);
  return { element, load };
}

/** The audit list, newest first. @param {Desk} desk */
export function auditPart(desk) {
  /** @param {AuditAct} act */
  const item = (act) => h("li", { "data-act": act.act, "data-target": act.target }, [
    h("time", { datetime: act.at }, [whenText(act.at)]), " · ",
    h("strong", {}, [has(`mod_act_${act.act}`) ? t(`mod_act_${act.act}`) : act.act]), " · ", act.target, ...(act.detail ? [" · ", act.detail] : []),
  ]);
  const { list, more, load } = paged("mod-audit", t("mod_no_acts"), async (cursor) => {
    const page = await api.call("get", "/v1/moderation/audit", { query: { limit: PAGE, ...(cursor ? { cursor } : {}) }, token: desk.token });
    return { items: page.acts, next: page.next_cursor };
  }, item, desk.refused);
  const element = h("section", { "aria-labelledby": "mod-audit-h", class: "panel" }, [
    h("h3", { id: "mod-audit-h" }, [t("mod_audit")]), list, more,
  ]);
  return { element, load };
}
