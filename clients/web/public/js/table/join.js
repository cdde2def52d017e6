// @ts-check
/** Someone with a match's link and no seat at it: the seats, and a form to join an open one. */

import * as api from "../api.js";
import { h, message } from "../dom.js";
import { t } from "../i18n.js";
import { keepSeat } from "../store.js";

/**
 * @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the view (nothing to stop)
 */
export async function showJoin(root, matchId, go) {
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "join-name", value: localStorage.getItem("tienlen.name") || t("default_name"), maxlength: 40, required: true }));
  const error = h("p", { role: "alert", id: "error", class: "error" });
  const join = async () => {
    try {
      const token = await api.join(matchId, input.value);
      localStorage.setItem("tienlen.name", input.value);
      keepSeat(matchId, { seat: token.seat, token: token.token, name: input.value });
      go(`/m/${encodeURIComponent(matchId)}`);
    } catch (e) {
      error.textContent = message(e);
    }
  };
  const seats = h("ul", { id: "join-seats" });
  root.replaceChildren(h("h2", {}, [t("join")]), seats, h("label", {}, [t("your_name"), " ", input]),
    h("button", { id: "join", type: "button", onclick: join }, [t("join")]), error);
  try {
    const match = await api.getMatch(matchId);
    seats.replaceChildren(...match.seats.map((s) => h("li", {}, [s.open ? t("open_seat") : `${s.name}${s.bot ? ` · ${t(`bot_${s.bot}`)}` : ""}`])));
  } catch (e) {
    error.textContent = message(e);
  }
  return () => {};
}
