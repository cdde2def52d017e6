// @ts-check
/** The lobby: create a match, the open listed matches, join by link, your matches. */

import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { forgetSeat, heldSeats, keepSeat } from "./store.js";

/** @param {string} id @param {string} text @param {string[]} values @param {(v: string) => string} name @param {string} [chosen] */
const select = (id, text, values, name, chosen) => {
  const input = /** @type {HTMLSelectElement} */ (h("select", { id },
    values.map((v) => h("option", { value: v, selected: v === chosen }, [name(v)]))));
  return { input, row: h("label", { for: id }, [text, " ", input]) };
};

/** @param {string} id @param {string} text @param {Record<string, any>} attrs */
const field = (id, text, attrs) => {
  const input = /** @type {HTMLInputElement} */ (h("input", { id, ...attrs }));
  return { input, row: h("label", { for: id }, [text, " ", input]) };
};

/** The match id in a shared link ("…/m/<id>") or the id itself. @param {string} text */
export const matchIdOf = (text) => {
  const found = text.trim().match(/(?:\/m\/)?([A-Za-z0-9_-]+)\/?$/);
  return found ? found[1] : "";
};

/** @param {HTMLElement} root @param {(path: string) => void} go */
export async function showLobby(root, go) {
  const name = field("name", t("your_name"), { value: localStorage.getItem("tienlen.name") || t("default_name"), maxlength: 40, required: true, autocomplete: "nickname" });
  const players = select("players", t("players"), ["2", "3", "4"], (v) => v, "4");
  const seatKinds = [1, 2, 3].map((i) => select(`seat-${i}`, t("seat", { n: i + 1 }), ["easy", "medium", "hard", "open"],
    (k) => t(k === "open" ? "open_seat" : `bot_${k}`), "medium"));
  const preset = select("preset", t("preset"), ["standard", "classic", "ladder"], (p) => t(`preset_${p}`), "standard");
  const hands = field("hands", t("hands"), { type: "number", min: 1, max: 50, value: 1 });
  const scoring = select("scoring", t("scoring"), ["places", "wins", "none"], (s) => t(`scoring_${s}`), "places");
  const clock = field("turn-seconds", t("clock"), { type: "number", min: 0, max: 3600, value: 0 });
  const timeouts = field("timeouts", t("timeouts"), { type: "number", min: 1, max: 10, value: 2 });
  const listed = field("listed", t("listed"), { type: "checkbox" });
  const error = h("p", { role: "alert", class: "error", id: "error" });
  const showSeats = () => seatKinds.forEach((s, i) => { s.row.hidden = i + 1 >= Number(players.input.value); });
  players.input.addEventListener("change", showSeats);
  showSeats();

  const create = async () => {
    localStorage.setItem("tienlen.name", name.input.value);
    const count = Number(players.input.value);
    /** @type {import("./api.js").CreateMatch["seats"]} */
    const seats = [{ name: name.input.value }, ...seatKinds.slice(0, count - 1).map((s, i) =>
      s.input.value === "open" ? { open: /** @type {true} */ (true) }
        : { name: t("bot_name", { n: i + 1 }), bot: /** @type {"easy" | "medium" | "hard"} */ (s.input.value) })];
    /** @type {import("./api.js").CreateMatch} */
    const body = {
      seats, listed: listed.input.checked, takeover: "medium",
      rules: {
        preset: /** @type {"standard" | "classic" | "ladder"} */ (preset.input.value), hands: Number(hands.input.value),
        scoring: /** @type {"places" | "wins" | "none"} */ (scoring.input.value),
      },
    };
    if (Number(clock.input.value) > 0) {
      body.clock = { turn_seconds: Number(clock.input.value), timeouts_before_takeover: Number(timeouts.input.value) };
    }
    try {
      const created = await api.createMatch(body);
      keepSeat(created.match_id, { seat: 0, token: created.tokens[0].token, name: name.input.value });
      go(`/m/${encodeURIComponent(created.match_id)}`);
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  };

  const linkInput = /** @type {HTMLInputElement} */ (h("input", { id: "join-by-link", type: "text", inputmode: "url" }));
  const joinByLink = () => { const id = matchIdOf(linkInput.value); if (id) go(`/m/${encodeURIComponent(id)}`); };
  const mine = h("ul", { id: "my-matches" });
  const showMine = () => {
    const ids = Object.keys(heldSeats());
    mine.replaceChildren(...(ids.length ? ids.map((id) => h("li", {}, [
      h("a", { href: `/m/${encodeURIComponent(id)}` }, [t("resume", { id })]), " ",
      h("button", { type: "button", class: "small", onclick: () => { forgetSeat(id); showMine(); } }, [t("forget")]),
    ])) : [h("li", {}, [t("none")])]));
  };
  showMine();
  const open = h("ul", { id: "open-matches" });
  const loadOpen = async () => {
    try {
      const found = await api.lobby();
      open.replaceChildren(...(found.matches.length ? found.matches.map((match) => h("li", {}, [
        `${t(`preset_${match.rules.preset}`)} · `, match.seats.map((s) => s.open ? "—" : s.name).join(", "), " ",
        h("a", { href: `/m/${encodeURIComponent(match.match_id)}` }, [t("join")]),
      ])) : [h("li", {}, [t("none")])]));
    } catch (e) {
      open.replaceChildren(h("li", { class: "error" }, [e instanceof Error ? e.message : String(e)]));
    }
  };
  root.replaceChildren(
    h("section", { "aria-labelledby": "create-h", class: "panel" }, [
      h("h2", { id: "create-h" }, [t("create")]),
      name.row, players.row, ...seatKinds.map((s) => s.row), preset.row, hands.row, scoring.row, clock.row, timeouts.row,
      listed.row, h("button", { id: "create", type: "button", onclick: create }, [t("start")]), error,
    ]),
    h("section", { "aria-labelledby": "open-h", class: "panel" }, [
      h("h2", { id: "open-h" }, [t("open_matches")]), open,
      h("button", { type: "button", id: "reload-lobby", onclick: () => void loadOpen() }, [t("refresh")]),
    ]),
    h("section", { "aria-labelledby": "link-h", class: "panel" }, [
      h("h2", { id: "link-h" }, [t("join_link")]),
      h("label", { for: "join-by-link" }, [t("link_or_id"), " ", linkInput]),
      h("button", { type: "button", id: "open-link", onclick: joinByLink }, [t("go")]),
    ]),
    h("section", { "aria-labelledby": "mine-h", class: "panel" }, [h("h2", { id: "mine-h" }, [t("your_matches")]), mine]),
  );
  await loadOpen();
}
