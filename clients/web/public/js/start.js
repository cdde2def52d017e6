// @ts-check
/**
 * The first screen's Play box: a Quick game (one hand against three bots) or a Match (several hands), at the level
 * chosen (Easy, Medium, Hard, Expert, Master). The choices are kept in localStorage, so a returning player starts in one
 * click.
 */

import { refusal } from "./account.js";
import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { forgetIfRevoked, signedIn } from "./session.js";
import { keepSeat } from "./store.js";

/** @typedef {import("./api.js").BotLevel} BotLevel */

/** The contract's bot levels: a record over its BotLevel enum, so tsc fails when the contract adds or drops one. */
/** @type {Record<BotLevel, true>} */
const LEVEL_SET = { easy: true, medium: true, hard: true, expert: true, master: true };
export const LEVELS = /** @type {BotLevel[]} */ (Object.keys(LEVEL_SET));
/** Seats at a quick table: you and three bots. */
const SEATS = 4;
/** The hands a Match may have, offered in its menu; MATCH_HANDS first. */
const HAND_CHOICES = ["2", "3", "4", "5", "6", "8", "10"];
const MATCH_HANDS = 4;
const KEY = "tienlen.start";

/** @typedef {{level: BotLevel, hands: number}} StartChoices */

/** The choices of the last game started here (or the first screen's defaults). @returns {StartChoices} */
export function lastChoices() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    const level = LEVELS.includes(kept.level) ? kept.level : "medium";
    const hands = HAND_CHOICES.includes(String(kept.hands)) ? Number(kept.hands) : MATCH_HANDS;
    return { level, hands };
  } catch {
    return { level: "medium", hands: MATCH_HANDS };
  }
}

/** @param {StartChoices} choices */
const keepChoices = (choices) => localStorage.setItem(KEY, JSON.stringify(choices));

/**
 * The Play box.
 * @param {(path: string) => void} go
 * @returns {HTMLElement}
 */
export function startSection(go) {
  const chosen = lastChoices();
  const radios = LEVELS.map((level) => /** @type {HTMLInputElement} */ (h("input", {
    type: "radio", name: "level", id: `level-${level}`, value: level, checked: level === chosen.level,
  })));
  const levels = h("fieldset", { id: "level", class: "levels" }, [
    h("legend", {}, [t("level")]),
    ...radios.map((radio, i) => h("label", { for: radio.id, class: "level" }, [radio, " ", t(`level_${LEVELS[i]}`)])),
  ]);
  const hands = /** @type {HTMLSelectElement} */ (h("select", { id: "match-hands" },
    HAND_CHOICES.map((n) => h("option", { value: n, selected: Number(n) === chosen.hands }, [n]))));
  const quick = /** @type {HTMLButtonElement} */ (h("button", {
    id: "quick-game", type: "button", class: "primary big", "aria-describedby": "quick-about",
  }, [t("play_game")]));
  const match = /** @type {HTMLButtonElement} */ (h("button", {
    id: "match-game", type: "button", "aria-describedby": "match-about",
  }, [t("match_game")]));
  const error = h("p", { id: "start-error", role: "alert", class: "error" });
  const level = () => /** @type {BotLevel} */ (radios.find((r) => r.checked)?.value ?? "medium");

  /** Create the match (you and three bots at the level) and open its table. @param {number} count its hands */
  const start = async (count) => {
    const choices = { level: level(), hands: Number(hands.value) };
    keepChoices(choices);
    const session = signedIn();
    const host = session ? session.name : localStorage.getItem("tienlen.name") || t("default_name");
    /** @type {api.CreateMatch} */
    const body = {
      seats: [
        { type: /** @type {const} */ ("remote"), name: host },
        ...Array.from({ length: SEATS - 1 }, (_, i) => ({ type: /** @type {const} */ ("bot"), name: t("bot_name", { n: i + 1 }), bot: choices.level })),
      ],
      rules: { preset: "standard", hands: count },
    };
    for (const button of [quick, match]) button.setAttribute("aria-disabled", "true");
    error.textContent = "";
    try {
      const created = await api.createMatch(body, session?.token);
      keepSeat(created.match_id, { seat: 0, token: created.tokens[0].token, name: host });
      go(`/m/${encodeURIComponent(created.match_id)}`);
    } catch (e) {
      error.textContent = forgetIfRevoked(e) ? t("session_ended") : refusal(e);
      for (const button of [quick, match]) button.removeAttribute("aria-disabled");
    }
  };
  const busy = () => quick.getAttribute("aria-disabled") === "true";
  quick.addEventListener("click", () => { if (!busy()) void start(1); });
  match.addEventListener("click", () => { if (!busy()) void start(Number(hands.value)); });
  return h("section", { id: "start-panel", "aria-labelledby": "start-h", class: "panel start" }, [
    h("h2", { id: "start-h" }, [t("play_vs_bots")]),
    levels,
    h("div", { class: "start-row" }, [quick, h("span", { id: "quick-about", class: "about" }, [t("quick_game_about")])]),
    h("div", { class: "start-row" }, [
      match,
      h("label", { for: "match-hands", class: "inline" }, [t("rule_hands"), " ", hands]),
      h("span", { id: "match-about", class: "about" }, [t("match_game_about")]),
    ]),
    error,
  ]);
}
