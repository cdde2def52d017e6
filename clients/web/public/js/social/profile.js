// @ts-check
/**
 * A profile's social parts: the matches the player plays now (Watch links) and, for a signed-in visitor, Follow or
 * Unfollow (PUT/DELETE /v1/me/following/{name}; whether it follows is read from GET /v1/me/following).
 */

import * as api from "../api.js";
import { h, message } from "../dom.js";
import { t } from "../i18n.js";
import "./words.js";

/** The player's live matches: a Watch link for each one that may be watched. @param {api.Player} found */
export function playingPart(found) {
  if (found.playing.length === 0) return h("p", { id: "playing", hidden: true });
  return h("section", { id: "playing", "aria-labelledby": "playing-h" }, [
    h("h3", { id: "playing-h" }, [t("playing_now")]),
    h("ul", {}, found.playing.map((match) => h("li", { "data-match": match.match_id }, [
      t("n_players", { n: match.players }), " · ",
      match.watchable
        ? h("a", { class: "watch-link", href: `/m/${encodeURIComponent(match.match_id)}/watch` }, [t("watch")])
        : t("not_watchable"),
    ]))),
  ]);
}

/**
 * Follow or Unfollow the player, as the signed-in account; its count of followers kept up to date.
 * @param {string} name @param {string} token @param {HTMLElement} count the followers' count to update
 * @param {HTMLElement} error where a refusal is said
 * @returns {HTMLElement}
 */
export function followButton(name, token, count, error) {
  const button = /** @type {HTMLButtonElement} */ (h("button", { id: "follow", type: "button", disabled: true }, [t("follow")]));
  let following = false;
  const show = () => {
    button.textContent = following ? t("unfollow") : t("follow");
    button.setAttribute("aria-pressed", String(following));
  };
  void api.call("get", "/v1/me/following", { token }).then((found) => {
    following = found.following.some((f) => f.name.toLowerCase() === name.toLowerCase());
    show();
    button.disabled = false;
  }).catch((e) => { error.textContent = message(e); });
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    try {
      await api.call(following ? "delete" : "put", "/v1/me/following/{name}", { path: { name }, token });
      count.textContent = String(Number(count.textContent) + (following ? -1 : 1));
      following = !following;
      show();
    } catch (e) {
      error.textContent = message(e);
    }
    button.disabled = false;
  });
  return button;
}
