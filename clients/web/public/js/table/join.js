// @ts-check
/**
 * Someone with a match's link and no seat at it: the seats, a form to join an open one (as your account when signed
 * in), and a link to watch it (/m/<id>/watch); and a seat whose view cannot be read (showUnreadable).
 */

import { refusal } from "../account.js";
import * as api from "../api.js";
import { h, message } from "../dom.js";
import { t } from "../i18n.js";
import { forgetIfRevoked, signedIn } from "../session.js";
import { forgetSeat, keepSeat } from "../store.js";
import "./watch_words.js"; // "Watch this match"

/**
 * @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the view (nothing to stop)
 */
export async function showJoin(root, matchId, go) {
  const session = signedIn();
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "join-name", value: localStorage.getItem("tienlen.name") || t("default_name"), maxlength: 40, required: true }));
  const error = h("p", { role: "alert", id: "error", class: "error" });
  const join = async () => {
    const name = session ? session.name : input.value;
    try {
      const token = await api.join(matchId, session ? undefined : name, session?.token);
      if (!session) localStorage.setItem("tienlen.name", name);
      keepSeat(matchId, { seat: token.seat, token: token.token, name });
      go(`/m/${encodeURIComponent(matchId)}`);
    } catch (e) {
      error.textContent = forgetIfRevoked(e) ? t("session_ended") : refusal(e);
    }
  };
  const seats = h("ul", { id: "join-seats" });
  const watch = h("p", { hidden: true }, [h("a", { id: "watch-link", href: `/m/${encodeURIComponent(matchId)}/watch` }, [t("watch_match")])]);
  root.replaceChildren(h("h2", {}, [t("join")]), seats,
    session ? h("p", { id: "join-as" }, [t("join_as", { name: session.name })]) : h("label", {}, [t("your_name"), " ", input]),
    h("button", { id: "join", type: "button", onclick: join }, [t("join")]), error, watch);
  try {
    const match = await api.getMatch(matchId);
    watch.hidden = false;
    seats.replaceChildren(...match.seats.map((s) => h("li", {}, [s.open ? t("open_seat") : `${s.name}${s.bot ? ` · ${t(`bot_${s.bot}`)}` : ""}`])));
  } catch (e) {
    error.textContent = message(e);
  }
  return () => {};
}

/**
 * The seat's view could not be read (the match is gone, say): why, and a way to forget the seat.
 * @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go @param {unknown} problem
 */
export function showUnreadable(root, matchId, go, problem) {
  const forget = h("button", { type: "button", id: "forget", onclick: () => { forgetSeat(matchId); go("/"); } }, [t("forget")]);
  root.replaceChildren(h("p", { role: "alert", id: "error", class: "error" }, [message(problem)]),
    h("p", {}, [h("a", { href: "/" }, [t("home")]), " ", forget]));
}
