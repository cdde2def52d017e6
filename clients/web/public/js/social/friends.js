// @ts-check
/**
 * The friends page at /friends: whom the signed-in account follows (GET /v1/me/following), playing first with a
 * Watch link for each watchable match, then online, then away (when last seen); Unfollow; and the inbox setting
 * that tells when one of them starts a match (`friends`, PUT /v1/me/settings).
 */

import * as api from "../api.js";
import { h, message } from "../dom.js";
import { t } from "../i18n.js";
import { dateText } from "../profile.js";
import { signedIn } from "../session.js";
import "./words.js";

/** @typedef {import("../../../types/openapi").components["schemas"]["Friend"]} Friend */

/**
 * One account followed: its name (its profile), its presence, its live matches, when last seen; Unfollow.
 * @param {Friend} friend @param {string} token @param {() => void} reload @param {HTMLElement} error
 */
function friendItem(friend, token, reload, error) {
  const unfollow = h("button", { type: "button", class: "small", "aria-label": t("unfollow_name", { name: friend.name }),
    onclick: async () => {
      try {
        await api.call("delete", "/v1/me/following/{name}", { path: { name: friend.name }, token });
        reload();
      } catch (e) {
        error.textContent = message(e);
      }
    } }, [t("unfollow")]);
  const seen = friend.presence === "away" && friend.last_seen ? [" · ", t("last_seen", { when: dateText(friend.last_seen) })] : [];
  return h("li", { class: `friend ${friend.presence}`, "data-name": friend.name }, [
    h("a", { href: `/p/${encodeURIComponent(friend.name)}` }, [friend.name]), " · ",
    h("span", { class: "presence" }, [t(`presence_${friend.presence}`)]), ...seen, " ",
    ...friend.matches.map((match) => match.watchable
      ? h("a", { class: "watch-link", href: `/m/${encodeURIComponent(match.match_id)}/watch` }, [t("watch_name", { name: friend.name })])
      : h("span", {}, [t("not_watchable")])),
    " ", unfollow,
  ]);
}

/**
 * @param {HTMLElement} root
 * @returns {Promise<() => void>} stops the view (nothing to stop)
 */
export async function showFriends(root) {
  const session = signedIn();
  const error = h("p", { id: "error", role: "alert", class: "error" });
  if (!session) {
    root.replaceChildren(h("p", {}, [h("a", { href: "/account?next=/friends" }, [t("sign_in_or_up")])]));
    return () => {};
  }
  const token = session.token;
  const list = h("ul", { id: "friends-list", class: "friends" });
  const setting = /** @type {HTMLInputElement} */ (h("input", { id: "friends-setting", type: "checkbox", disabled: true }));
  const load = async () => {
    try {
      const { following } = await api.call("get", "/v1/me/following", { token });
      list.replaceChildren(...(following.length
        ? following.map((friend) => friendItem(friend, token, () => void load(), error))
        : [h("li", {}, [t("friends_none")])]));
    } catch (e) {
      error.textContent = message(e);
    }
  };
  setting.addEventListener("change", async () => {
    setting.disabled = true;
    try {
      await api.call("put", "/v1/me/settings", { body: { friends: setting.checked }, token });
    } catch (e) {
      setting.checked = !setting.checked;
      error.textContent = message(e);
    }
    setting.disabled = false;
  });
  root.replaceChildren(h("section", { "aria-labelledby": "friends-h", class: "panel" }, [
    h("h2", { id: "friends-h" }, [t("following_title")]), list,
    h("p", {}, [h("label", {}, [setting, " ", t("friends_setting")])]),
    error,
  ]));
  await load();
  try {
    setting.checked = (await api.call("get", "/v1/me/settings", { token })).friends;
    setting.disabled = false;
  } catch (e) {
    error.textContent = message(e);
  }
  return () => {};
}
