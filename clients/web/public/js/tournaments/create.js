// @ts-check
/**
 * The form that creates a tournament (POST /v1/tournaments): name, format, table size, rules preset, hands, turn
 * seconds, start (when full, or at a time), fewest and most entrants, rated, bots; rounds (Swiss), minutes (arena) or
 * deals (duplicate), shown for the format chosen. The server's refusals are shown in words by their `reason`.
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { has, t } from "../i18n.js";
import { refusalText } from "./words.js";

/** @typedef {import("../../../types/openapi").components["schemas"]["TournamentCreate"]} Create */
/** @typedef {import("../../../types/openapi").components["schemas"]["TournamentFormat"]} Format */

/** The formats, in the order the form offers them. @type {Format[]} */
const FORMATS = ["swiss", "arena", "duplicate"];

/** @param {string} id @param {string} text @param {Record<string, any>} attrs */
const field = (id, text, attrs) => {
  const input = /** @type {HTMLInputElement} */ (h("input", { id, ...attrs }));
  return { input, row: h("label", { for: id }, [text, " ", input]) };
};

/** @param {string} id @param {string} text @param {string[]} values @param {(v: string) => string} label */
const choice = (id, text, values, label) => {
  const input = /** @type {HTMLSelectElement} */ (h("select", { id }, values.map((v) => h("option", { value: v }, [label(v)]))));
  return { input, row: h("label", { for: id }, [text, " ", input]) };
};

/** @param {string} id @param {string} text @param {boolean} checked */
const check = (id, text, checked) => {
  const input = /** @type {HTMLInputElement} */ (h("input", { id, type: "checkbox", checked }));
  return { input, row: h("label", { for: id, class: "check" }, [input, " ", text]) };
};

/**
 * @param {string} token the session's token @param {(id: string) => void} created opens the new tournament
 * @returns {HTMLElement}
 */
export function createForm(token, created) {
  const name = field("t-name", t("t_name"), { type: "text", maxlength: 60, required: true });
  const format = choice("t-format", t("t_format"), FORMATS, (f) => t(`t_format_${f}`));
  const players = choice("t-players", t("t_players"), ["2", "3", "4"], (n) => n);
  players.input.value = "4";
  const preset = choice("t-preset", t("preset"), ["standard"], (p) => (has(`preset_${p}`) ? t(`preset_${p}`) : p));
  const hands = field("t-hands", t("t_hands"), { type: "number", min: 1, max: 13, value: 1 });
  const turn = field("t-turn", t("t_turn"), { type: "number", min: 5, max: 600, value: 30 });
  const start = choice("t-start", t("t_start"), ["full", "at"], (s) => t(s === "full" ? "t_start_full" : "t_start_at"));
  const at = field("t-start-at", t("t_start_time"), { type: "datetime-local" });
  const least = field("t-min", t("t_min"), { type: "number", min: 2, max: 1024, value: 4 });
  const most = field("t-max", t("t_max"), { type: "number", min: 2, max: 1024, value: 8 });
  const rounds = field("t-rounds", t("t_rounds"), { type: "number", min: 1, max: 15, value: 3 });
  const minutes = field("t-window", t("t_window"), { type: "number", min: 1, max: 360, value: 30 });
  const deals = field("t-deals", t("t_deals"), { type: "number", min: 1, max: 96, value: 8 });
  const rated = check("t-rated", t("t_rated"), false);
  const bots = check("t-bots", t("t_bots"), true);
  const error = h("p", { id: "t-create-error", role: "alert", class: "error" });
  const button = /** @type {HTMLButtonElement} */ (h("button", { type: "button", id: "t-create", class: "primary" }, [t("t_create_go")]));
  const show = () => {
    rounds.row.hidden = format.input.value !== "swiss";
    minutes.row.hidden = format.input.value !== "arena";
    deals.row.hidden = format.input.value !== "duplicate";
    at.row.hidden = start.input.value !== "at";
  };
  format.input.addEventListener("change", show);
  start.input.addEventListener("change", show);
  show();
  void api.rules().then((catalog) => {
    const chosen = preset.input.value;
    preset.input.replaceChildren(...Object.keys(catalog.presets).map((p) =>
      h("option", { value: p }, [has(`preset_${p}`) ? t(`preset_${p}`) : p])));
    preset.input.value = chosen in catalog.presets ? chosen : catalog.default_preset;
  }).catch(() => {});
  button.addEventListener("click", async () => {
    error.textContent = "";
    const chosen = /** @type {Format} */ (format.input.value);
    /** @type {Create} */
    const body = {
      name: name.input.value.trim(), format: chosen, players: Number(players.input.value), preset: /** @type {Create["preset"]} */ (preset.input.value),
      hands: Number(hands.input.value), turn_seconds: Number(turn.input.value),
      min_entrants: Number(least.input.value), max_entrants: Number(most.input.value),
      rated: rated.input.checked, bots: bots.input.checked,
    };
    if (start.input.value === "at") {
      const when = new Date(at.input.value);
      body.starts_at = Number.isNaN(when.getTime()) ? at.input.value : when.toISOString();
    }
    if (chosen === "swiss") body.rounds = Number(rounds.input.value);
    if (chosen === "arena") body.window_s = Number(minutes.input.value) * 60;
    if (chosen === "duplicate") body.deals = Number(deals.input.value);
    button.disabled = true;
    try {
      const made = await api.call("post", "/v1/tournaments", { body, token });
      created(made.tournament_id);
    } catch (e) {
      error.textContent = refusalText(e);
    }
    button.disabled = false;
  });
  return h("section", { "aria-labelledby": "t-create-h", class: "panel" }, [
    h("h2", { id: "t-create-h" }, [t("t_create")]),
    h("div", { class: "form-grid" }, [name.row, format.row, players.row, preset.row, hands.row, turn.row, start.row,
      at.row, least.row, most.row, rounds.row, minutes.row, deals.row, rated.row, bots.row]),
    button, error,
  ]);
}
