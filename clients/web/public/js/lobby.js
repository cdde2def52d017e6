// @ts-check
/** The lobby: create a match, the open matches, your matches. */

import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { heldSeats, keepSeat } from "./store.js";

/** @param {HTMLElement} root @param {(path: string) => void} go */
export async function showLobby(root, go) {
  const name = /** @type {HTMLInputElement} */ (h("input", { id: "name", value: localStorage.getItem("tienlen.name") ?? "Ann", maxlength: 40 }));
  const players = /** @type {HTMLSelectElement} */ (h("select", { id: "players" }, ["2", "3", "4"].map((n) => h("option", { value: n, selected: n === "4" }, [n]))));
  const seatKinds = [1, 2, 3].map((i) => /** @type {HTMLSelectElement} */ (h("select", { id: `seat-${i}` },
    ["easy", "medium", "hard", "open"].map((k) => h("option", { value: k }, [t(k === "open" ? "open_seat" : `bot_${k}`)])))));
  const hands = /** @type {HTMLInputElement} */ (h("input", { id: "hands", type: "number", min: 1, max: 20, value: 1 }));
  const clock = /** @type {HTMLInputElement} */ (h("input", { id: "clock", type: "number", min: 0, max: 3600, value: 0 }));
  const listed = /** @type {HTMLInputElement} */ (h("input", { id: "listed", type: "checkbox" }));
  const error = h("p", { role: "alert", class: "error" });
  const create = async () => {
    localStorage.setItem("tienlen.name", name.value);
    const count = Number(players.value);
    const seats = [{ name: name.value }, ...seatKinds.slice(0, count - 1).map((s, i) =>
      s.value === "open" ? { open: true }
        : { name: `Bot ${i + 1}`, bot: /** @type {"easy" | "medium" | "hard"} */ (s.value) })];
    /** @type {import("./api.js").CreateMatch} */
    const body = { seats, rules: { hands: Number(hands.value) }, listed: listed.checked, takeover: "medium" };
    if (Number(clock.value) > 0) body.clock = { turn_seconds: Number(clock.value), timeouts_before_takeover: 2 };
    try {
      const created = await api.createMatch(body);
      keepSeat(created.match_id, { seat: 0, token: created.tokens[0].token, name: name.value });
      go(`/m/${created.match_id}`);
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  };
  const label = (/** @type {string} */ text, /** @type {HTMLElement} */ input) => h("label", {}, [text, " ", input]);
  const mine = Object.keys(heldSeats()).map((id) => h("li", {}, [h("a", { href: `/m/${id}` }, [`${t("resume")} ${id}`])]));
  const open = h("ul", { id: "open-matches" });
  root.replaceChildren(
    h("section", { "aria-labelledby": "create-h" }, [
      h("h2", { id: "create-h" }, [t("create")]),
      label(t("your_name"), name), label(t("players"), players),
      ...seatKinds.map((s, i) => label(t("seat", { n: i + 1 }), s)),
      label(t("hands"), hands), label(t("clock"), clock), label(t("listed"), listed),
      h("button", { id: "create", type: "button", onclick: create }, [t("start")]), error,
    ]),
    h("section", {}, [h("h2", {}, [t("open_matches")]), open]),
    h("section", {}, [h("h2", {}, [t("your_matches")]), mine.length ? h("ul", {}, mine) : h("p", {}, [t("none")])]),
  );
  try {
    const found = await api.lobby();
    open.replaceChildren(...(found.matches.length ? found.matches.map((match) => h("li", {}, [
      match.seats.map((s) => s.open ? "—" : s.name).join(", "), " ",
      h("a", { href: `/m/${match.match_id}` }, [t("join")]),
    ])) : [h("li", {}, [t("none")])]));
  } catch { /* the lobby stays empty */ }
}
