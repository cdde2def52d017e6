// @ts-check
/** Play, Pass and Hint: sending the seat's action, asking for a hint and saying it. */

import * as api from "../api.js";
import { describe } from "../cards.js";
import { h } from "../dom.js";
import { fill, t } from "../i18n.js";
import { hintWords } from "../words.js";
import { myTurn, namer, verdict } from "./state.js";

/** @typedef {import("./state.js").Table} Table */
/** @typedef {import("./follow.js").Follower} Follower */

/** @param {string} id its text's key too @param {() => void} onclick */
export const button = (id, onclick) => /** @type {HTMLButtonElement} */ (h("button", { id, type: "button", onclick }, [t(id)]));

/**
 * The buttons are enabled only on the seat's turn with no request under way (Play: for a legal selection; Pass:
 * when the seat may pass); after an action the events it brought are shown and the view read again.
 * @param {Table} table @param {Follower} following
 * @returns {{buttons: HTMLButtonElement[], hintLine: HTMLElement, draw: () => void}}
 */
export function actionsPart({ state, redraw, showError }, following) {
  const hintLine = h("p", { id: "hint-text", "aria-live": "polite" });

  /** @param {"play" | "pass"} type */
  async function send(type) {
    const [first, ...rest] = state.selected;
    // Play is enabled for a legal selection only, so it never sends a play without cards (the server refuses one).
    if (state.busy || (type === "play" && first === undefined)) return;
    state.busy = true;
    showError("");
    redraw();
    try {
      const version = state.view.version;
      /** @type {api.Action} */
      const action = type === "play" && first !== undefined ? { type, cards: [first, ...rest], version } : { type: "pass", version };
      const answer = await api.act(state.matchId, state.held.token, action);
      state.selected = new Set();
      hintLine.textContent = "";
      state.busy = false;
      following.enqueue(/** @type {import("../api.js").MatchEvent[]} */ (answer.events));
      if (!state.revealing) await following.refreshShowingErrors();
    } catch (e) {
      state.busy = false;
      showError(e);
      await following.refresh().catch(() => redraw());
    }
  }

  /** The server's advice: its cards picked (or none, to pass) and why, in words. */
  async function askHint() {
    if (state.busy) return;
    state.busy = true;
    showError("");
    redraw();
    try {
      const advice = await api.hint(state.matchId, state.held.token);
      const why = hintWords(advice, namer(state));
      if (advice.action.type === "play") {
        state.selected = new Set(advice.action.cards);
        hintLine.replaceChildren(...fill("hint_play", { what: describe(advice.action.cards), why }));
      } else {
        state.selected = new Set();
        hintLine.replaceChildren(...fill("hint_pass", { why }));
      }
    } catch (e) {
      showError(e);
    }
    state.busy = false;
    redraw();
  }

  const play = button("play", () => void send("play"));
  const pass = button("pass", () => void send("pass"));
  const hint = button("hint", () => void askHint());
  const draw = () => {
    const mine = myTurn(state) && !state.busy;
    play.disabled = !(mine && verdict(state).ok);
    pass.disabled = !(mine && state.legal?.can_pass);
    hint.disabled = !mine;
  };
  return { buttons: [play, pass, hint], hintLine, draw };
}
