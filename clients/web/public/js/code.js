// @ts-check
/** "Join with a code": the lobby's first box, which seats you at the match a room code names. */

import { refusal } from "./account.js";
import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { forgetIfRevoked, signedIn } from "./session.js";
import { keepSeat } from "./store.js";

/** A room code: 6 of 23456789ABCDEFGHJKMNPQRSTUVWXYZ (no 0/O, 1/I/L). */
const CODE = /^[2-9ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;

/** A code as typed, as the server reads it: spaces and dashes dropped, upper case. @param {string} text */
export const codeOf = (text) => text.replace(/[\s-]/g, "").toUpperCase();

/**
 * The seat an account already holds at a room's match (409 already_seated): its token acts for that seat.
 * @param {string} code @param {import("./session.js").Signed} session
 * @returns {Promise<{match_id: string, seat: number} | null>}
 */
async function seatHeld(code, session) {
  const found = await api.room(code);
  const seat = found.seats.find((s) => s.account && s.name?.toLowerCase() === session.name.toLowerCase());
  return seat ? { match_id: found.match_id, seat: seat.seat } : null;
}

/**
 * The form: the code and (signed out) your name; Join takes the room's lowest open seat and opens its table.
 * @param {(path: string) => void} go
 */
export function codeSection(go) {
  const session = signedIn();
  const code = /** @type {HTMLInputElement} */ (h("input", {
    id: "room-code-input", class: "code-input", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
    maxlength: 9, "aria-describedby": "room-code-about",
  }));
  const name = /** @type {HTMLInputElement} */ (h("input", {
    id: "code-name", maxlength: 40, required: true, autocomplete: "nickname",
    value: localStorage.getItem("tienlen.name") || t("default_name"),
  }));
  const error = h("p", { id: "code-error", role: "alert", class: "error" });
  const button = /** @type {HTMLButtonElement} */ (h("button", { id: "join-code", type: "submit" }, [t("join")]));
  const fail = (/** @type {string} */ text, /** @type {HTMLElement} */ where) => { error.textContent = text; where.focus(); };

  const join = async (/** @type {Event} */ event) => {
    event.preventDefault();
    error.textContent = "";
    const room = codeOf(code.value);
    if (!CODE.test(room)) return fail(t("code_rule"), code);
    const who = session ? session.name : name.value.trim();
    if (!who) return fail(t("name_needed"), name);
    button.disabled = true;
    try {
      const seat = await api.joinRoom(room, session ? undefined : who, session?.token);
      if (!session) localStorage.setItem("tienlen.name", who);
      keepSeat(seat.match_id, { seat: seat.seat, token: seat.token, name: who });
      go(`/m/${encodeURIComponent(seat.match_id)}`);
      return;
    } catch (e) {
      const held = session && e instanceof api.ApiError && e.reason === "already_seated"
        ? await seatHeld(room, session).catch(() => null) : null;
      if (held && session) {
        keepSeat(held.match_id, { seat: held.seat, token: session.token, name: who });
        go(`/m/${encodeURIComponent(held.match_id)}`);
        return;
      }
      fail(forgetIfRevoked(e) ? t("session_ended") : refusal(e), code);
    }
    button.disabled = false;
  };

  return h("section", { "aria-labelledby": "code-h", class: "panel", id: "join-code-panel" }, [
    h("h2", { id: "code-h" }, [t("join_code")]),
    h("form", { id: "code-form", novalidate: true, onsubmit: join }, [
      h("div", { class: "code-row" }, [
        h("div", { class: "field" }, [h("label", { for: code.id }, [t("room_code")]), code]),
        ...(session ? [h("p", { id: "code-as" }, [t("join_as", { name: session.name })])]
          : [h("div", { class: "field" }, [h("label", { for: name.id }, [t("your_name")]), name])]),
        button,
      ]),
      h("small", { id: "room-code-about", class: "about" }, [t("code_about")]),
      error,
    ]),
  ]);
}
