// @ts-check
/**
 * The moderators' page at /moderate (loaded, with its words and styles, only there). The moderator pastes the
 * server's moderator token, kept in this tab's sessionStorage only (never localStorage; Forget drops it); the page
 * then lists the open reports (Remove message, Dismiss), mutes or unmutes an account's chat, closes an account (a
 * second step confirms), features a match on the live table or none, and shows the audit list of the acts. Each
 * refusal is said in words by its `reason`.
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { auditPart, reportsPart, whenText } from "./lists.js";
import { refusalText } from "./words.js";

if (!document.querySelector("link[href='/web/moderate.css']")) {
  document.head.append(h("link", { rel: "stylesheet", href: "/web/moderate.css" }));
}

/** Where the tab keeps the moderator token (sessionStorage: gone with the tab). */
const KEY = "tienlen.moderator";

/** The token this tab keeps, or null. */
const keptToken = () => { try { return sessionStorage.getItem(KEY); } catch { return null; } };

/** A labelled text box. @param {string} id @param {string} words @param {Record<string, any>} [attrs] */
const field = (id, words, attrs = {}) => {
  const input = /** @type {HTMLInputElement} */ (h("input", { id, name: id, autocomplete: "off", spellcheck: "false", ...attrs }));
  return { input, label: h("label", { for: id }, [words, " ", input]) };
};

/** A match id from what was pasted: an id, or a link of the table (/m/<id>, /m/<id>/watch). @param {string} text */
const matchIdOf = (text) => decodeURIComponent(text.trim().match(/\/m\/([^/?#]+)/)?.[1] ?? text.trim());

/** @param {HTMLElement} root @returns {Promise<() => void>} */
export async function showModerate(root) {
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const status = h("p", { id: "mod-status", role: "status" });
  /** @param {unknown} e */
  const refused = (e) => { status.textContent = ""; error.textContent = refusalText(e); };

  const askToken = () => {
    const { input, label } = field("mod-token", t("mod_token"), { type: "password", "aria-describedby": "mod-token-about" });
    const form = h("form", { id: "mod-token-form" }, [
      label, h("p", { id: "mod-token-about" }, [t("mod_token_about")]),
      h("button", { type: "submit", id: "mod-use" }, [t("mod_use")]),
    ]);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const token = input.value.trim();
      error.textContent = "";
      if (!token) { error.textContent = t("mod_token_needed"); input.focus(); return; }
      try {
        await api.call("get", "/v1/moderation/reports", { query: { limit: 1 }, token }); // the server says whether it is the one
      } catch (e) {
        refused(e);
        input.focus();
        return;
      }
      sessionStorage.setItem(KEY, token);
      show();
    });
    root.replaceChildren(h("section", { "aria-labelledby": "mod-h", class: "panel mod-desk" }, [
      h("h2", { id: "mod-h" }, [t("mod_title")]), form, error,
    ]));
    input.focus();
  };

  /** @param {string} token */
  const desk = (token) => {
    /** @type {import("./lists.js").Desk} */
    const shared = {
      token, refused,
      done: (words) => { error.textContent = ""; status.textContent = words; void reports.load(true); void audit.load(true); },
    };
    const reports = reportsPart(shared);
    const audit = auditPart(shared);
    /** Run `act`, then say `words` (the lists are read again). @param {() => Promise<unknown>} act @param {() => string} words */
    const run = async (act, words) => {
      try { await act(); shared.done(words()); } catch (e) { refused(e); }
    };
    const needName = (/** @type {HTMLInputElement} */ input) => {
      const name = input.value.trim();
      if (!name) { error.textContent = t("mod_name_needed"); input.focus(); }
      return name;
    };

    const mute = field("mod-mute-name", t("mod_name"));
    const minutes = field("mod-minutes", t("mod_minutes"), { type: "number", min: 1, max: 43200, step: 1, value: 60, inputmode: "numeric" });
    const muteForm = h("form", { id: "mod-mute-form" }, [mute.label, minutes.label,
      h("button", { type: "submit", id: "mod-mute" }, [t("mod_mute")]),
      h("button", { type: "button", id: "mod-unmute" }, [t("mod_unmute")])]);
    muteForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = needName(mute.input);
      if (!name) return;
      let until = "";
      void run(async () => {
        const muted = await api.call("put", "/v1/moderation/muted/{name}", { path: { name }, body: { minutes: Number(minutes.input.value) }, token });
        until = whenText(muted.until);
      }, () => t("mod_muted", { name, when: until }));
    });
    /** @type {HTMLElement} */ (muteForm.querySelector("#mod-unmute")).addEventListener("click", () => {
      const name = needName(mute.input);
      if (name) void run(() => api.call("delete", "/v1/moderation/muted/{name}", { path: { name }, token }), () => t("mod_unmuted", { name }));
    });

    const closing = field("mod-close-name", t("mod_name"));
    const closeButton = h("button", { type: "submit", id: "mod-close" }, [t("mod_close")]);
    const confirm = h("div", { id: "mod-close-confirm", hidden: true });
    const closeForm = h("form", { id: "mod-close-form" }, [closing.label, closeButton, confirm]);
    const stopAsking = () => { confirm.hidden = true; confirm.replaceChildren(); closeButton.focus(); };
    closeForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = needName(closing.input);
      if (!name) return;
      error.textContent = "";
      const no = h("button", { type: "button", id: "mod-close-no" }, [t("mod_close_no")]);
      const yes = h("button", { type: "button", id: "mod-close-yes" }, [t("mod_close_yes")]);
      no.addEventListener("click", stopAsking);
      yes.addEventListener("click", () => {
        confirm.hidden = true;
        confirm.replaceChildren();
        void run(() => api.call("post", "/v1/moderation/closed/{name}", { path: { name }, token }), () => t("mod_closed", { name }))
          .then(() => closeButton.focus());
      });
      confirm.replaceChildren(h("p", { id: "mod-close-ask" }, [t("mod_close_ask", { name })]), yes, " ", no);
      confirm.hidden = false;
      no.focus();
    });
    confirm.addEventListener("keydown", (event) => { if (event.key === "Escape") stopAsking(); });

    const featuring = field("mod-feature-id", t("mod_match_id"));
    const featureForm = h("form", { id: "mod-feature-form" }, [featuring.label,
      h("button", { type: "submit", id: "mod-feature" }, [t("mod_feature")]),
      h("button", { type: "button", id: "mod-unfeature" }, [t("mod_unfeature")])]);
    featureForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const matchId = matchIdOf(featuring.input.value);
      if (!matchId) { error.textContent = t("mod_match_needed"); featuring.input.focus(); return; }
      void run(() => api.call("put", "/v1/live/featured", { body: { match_id: matchId }, token }), () => t("mod_featured", { id: matchId }));
    });
    /** @type {HTMLElement} */ (featureForm.querySelector("#mod-unfeature")).addEventListener("click", () =>
      void run(() => api.call("delete", "/v1/live/featured", { token }), () => t("mod_unfeatured")));

    const forget = h("button", { type: "button", id: "mod-forget", class: "small" }, [t("mod_forget")]);
    forget.addEventListener("click", () => { sessionStorage.removeItem(KEY); status.textContent = ""; error.textContent = ""; show(); });
    /** A part of the page under its heading. @param {string} id @param {string} title @param {HTMLElement} body */
    const part = (id, title, body) => h("section", { "aria-labelledby": id, class: "panel" }, [h("h3", { id }, [title]), body]);
    root.replaceChildren(h("section", { "aria-labelledby": "mod-h", class: "mod-desk" }, [
      h("h2", { id: "mod-h" }, [t("mod_title")]), h("p", {}, [forget]), status, error,
      reports.element,
      part("mod-mute-h", t("mod_mute_h"), muteForm),
      part("mod-close-h", t("mod_close_h"), closeForm),
      part("mod-feature-h", t("mod_feature_h"), featureForm),
      audit.element,
    ]));
    void reports.load(true);
    void audit.load(true);
  };

  const show = () => {
    const token = keptToken();
    if (token) desk(token);
    else askToken();
  };
  show();
  return () => {};
}
