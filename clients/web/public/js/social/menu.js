// @ts-check
/**
 * A chat message's menu, for a signed-in reader and another account's message: mute its author (its messages
 * hidden), block it (neither reads the other; no challenges), report the message to the moderators (once).
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { signedIn } from "../session.js";
import { put } from "./put.js";

/**
 * @typedef {object} MenuOptions
 * @property {string} matchId @property {number} seq the message
 * @property {string} name who said it (as shown) @property {string} account the author's account
 * @property {(text: string) => void} say a line for what was done, or why not
 * @property {(account: string) => void} hide hide the account's messages on this page
 */

/** @param {MenuOptions} options @returns {HTMLElement} */
export function messageMenu({ matchId, seq, name, account, say, hide }) {
  /** @param {string} key @param {string} cls @param {() => Promise<void>} act */
  const item = (key, cls, act) => h("button", { type: "button", class: cls, onclick: async (/** @type {Event} */ e) => {
    const session = signedIn();
    if (!session) return;
    const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
    button.disabled = true;
    try {
      await act();
      /** @type {HTMLDetailsElement | null} */ (button.closest("details"))?.removeAttribute("open");
    } catch (problem) {
      say(problem instanceof api.ApiError && problem.reason === "already_reported" ? t("chat_already_reported")
        : problem instanceof Error ? problem.message : String(problem));
    }
    button.disabled = false;
  } }, [t(key, { name })]);
  const token = () => signedIn()?.token ?? "";
  const mute = item("chat_mute", "mute", async () => {
    await put("/v1/me/muted/{name}", { name: account, token: token() });
    say(t("chat_muted_done", { name }));
    hide(account);
  });
  const block = item("chat_block", "block", async () => {
    await put("/v1/me/blocked/{name}", { name: account, token: token() });
    say(t("chat_blocked_done", { name }));
    hide(account);
  });
  const report = item("chat_report", "report", async () => {
    await api.call("post", "/v1/matches/{match_id}/chat/{seq}/report", { path: { match_id: matchId, seq }, token: token(), body: {} });
    say(t("chat_reported"));
  });
  return h("details", { class: "msg-menu" }, [
    h("summary", { "aria-label": t("chat_menu", { name }), title: t("chat_menu", { name }) }, ["⋯"]),
    h("div", { class: "msg-menu-items" }, [mute, block, report])]);
}
