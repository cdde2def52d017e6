// @ts-check
/** The felt in the middle of the table: the play on it, whose turn it is, and the turn's clock. */

import { tablePlay } from "../board.js";
import { h, setText } from "../dom.js";
import { t } from "../i18n.js";
import { namer } from "./state.js";

/** @typedef {import("./state.js").ShownState} ShownState */

/** A clock drawn inline (an emoji clock is a missing glyph on machines without an emoji font). */
function clockIcon() {
  const icon = h("span", { class: "clock-icon", "aria-hidden": "true" });
  icon.innerHTML = '<svg viewBox="0 0 16 16" width="1em" height="1em" focusable="false">'
    + '<circle cx="8" cy="9" r="5.8" fill="none" stroke="currentColor" stroke-width="1.7"/>'
    + '<path d="M8 9V5.6M8 9l2.2 1.6M6 1.6h4M8 1.6v1.6M13 3.6l1.2 1.2" fill="none" stroke="currentColor" '
    + 'stroke-width="1.7" stroke-linecap="round"/></svg>';
  return icon;
}

/**
 * The felt; `tick` redraws its clock alone (the table calls it a few times a second).
 * @param {ShownState} state
 * @returns {{element: HTMLElement, draw: () => void, tick: () => void}}
 */
export function feltPart(state) {
  const play = h("div", { id: "table-play-box" });
  const clockText = h("span", { id: "clock-text" });
  const clock = h("span", { id: "clock", role: "timer", hidden: true }, [clockIcon(), " ", clockText]);
  // who is on turn, announced when it changes; "…" (not announced) while other seats' plays are being shown
  const turn = h("span", { id: "turn-text", "aria-live": "polite" });
  const showing = h("span", { id: "showing", "aria-hidden": "true" });
  const element = h("section", { id: "table", "aria-label": t("table_label") }, [
    play, h("p", { id: "turn" }, [turn, showing, clock]),
  ]);

  /** The turn clock, counted down from the view's turn_deadline. */
  const tick = () => {
    const { view, revealing } = state;
    const counting = Boolean(view.turn_deadline) && view.status === "playing" && !revealing;
    clock.hidden = !counting;
    const left = counting && view.turn_deadline ? Math.max(0, Date.parse(view.turn_deadline) - Date.now()) : 0;
    setText(clockText, counting ? t("clock_left", { s: Math.ceil(left / 1000) }) : "");
    // the ring round the initials of the seat on turn: the part of its clock left (whole without a clock)
    const ring = document.querySelector("#seats .seat.on-turn .ring-left");
    const whole = (view.clock?.turn_seconds ?? 0) * 1000;
    if (ring instanceof SVGElement) ring.style.strokeDashoffset = counting && whole ? (100 * (1 - Math.min(1, left / whole))).toFixed(1) : "0";
  };

  const draw = () => {
    const { view, revealing } = state;
    const name = namer(state);
    play.replaceChildren(tablePlay(view, name, { handOver: state.handOver, showing: revealing }));
    setText(turn, view.status !== "playing" || view.turn === null || revealing ? "" :
      view.turn === view.seat ? t("your_turn") : t("turn_of", { name: name(view.turn) }));
    setText(showing, revealing && view.status === "playing" ? t("showing") : "");
    tick();
  };
  return { element, draw, tick };
}
