// @ts-check
/**
 * The first lesson at /learn: short steps on real cards (GET /v1/lessons/first), each checked by the server's engine
 * (POST /v1/lessons/first/steps/{n}): the learner picks cards and plays, or passes; the verdict is shown in words
 * (lesson/words.js); Next once a step is passed; after the last, the first screen's Play box (a Quick game).
 */

import * as api from "../api.js";
import { describe, face, faceUp, isRed, label, sorted, suitOf } from "../cards.js";
import { h, message } from "../dom.js";
import { fill, t } from "../i18n.js";
import "./words.js";

/** @typedef {import("../../../types/openapi").components["schemas"]["LessonStep"]} LessonStep */
/** @typedef {import("../../../types/openapi").components["schemas"]["LessonVerdict"]} LessonVerdict */

/** Arrow keys, Home and End move along the hand (as at the table). @param {HTMLElement} hand @param {KeyboardEvent} event */
function moveFocus(hand, event) {
  const buttons = [...hand.querySelectorAll("button")];
  const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (event.target));
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  buttons[(to + buttons.length) % buttons.length]?.focus();
}

/** What the step's table shows: the play to beat, or that the learner leads; a pass lock; the start card. @param {LessonStep} step */
function tablePart(step) {
  const { position } = step;
  const lines = [position.table.length
    ? h("p", { id: "table-play" }, [t("lesson_table"), " ", describe(position.table), " ",
      h("span", { class: "faces" }, sorted(position.table).map((c) => faceUp(c)))])
    : h("p", { id: "table-play", class: "felt-line" }, [t("lesson_lead")])];
  if (position.locked) lines.push(h("p", { id: "lesson-locked" }, [t("lesson_locked")]));
  if (position.start_card) {
    lines.push(h("p", { id: "lesson-start-card" }, fill("lesson_start_card", { card: faceUp(position.start_card, { inline: true }) })));
  }
  return h("div", { class: "lesson-table" }, lines);
}

/**
 * @param {HTMLElement} root @param {(path: string) => void} go
 * @returns {Promise<void>} once the first step is shown (nothing to stop)
 */
export async function showLesson(root, go) {
  let steps;
  try {
    steps = (await api.call("get", "/v1/lessons/first", {})).steps;
  } catch (e) {
    root.replaceChildren(h("p", { role: "alert", class: "error" }, [t("lesson_unavailable", { message: message(e) })]));
    return;
  }
  const all = steps;
  /** @param {number} at the step's index */
  const showStep = (at) => {
    const step = all[at];
    /** @type {Set<string>} */
    const picked = new Set();
    const hand = h("div", { id: "hand", role: "group", "aria-label": t("lesson_hand") });
    const verdict = h("p", { id: "lesson-verdict", role: "status", "aria-live": "polite" });
    const next = /** @type {HTMLButtonElement} */ (h("button", { id: "lesson-next", type: "button", class: "primary", hidden: true,
      onclick: () => (at + 1 < all.length ? showStep(at + 1) : showEnd()) }, [t(at + 1 < all.length ? "lesson_next" : "lesson_finish")]));
    const drawHand = () => {
      const cards = step.position.hand;
      hand.replaceChildren(...cards.map((card, i) => {
        const tilt = cards.length > 1 ? i / (cards.length - 1) - 0.5 : 0;
        return h("button", {
          type: "button", class: `card${isRed(card) ? " red" : ""}`, "data-card": card, "data-suit": suitOf(card),
          "aria-label": label(card), "aria-pressed": picked.has(card) ? "true" : "false",
          style: `--tilt: ${tilt.toFixed(3)}; --drop: ${(tilt * tilt).toFixed(3)}`,
          onclick: () => { if (picked.has(card)) picked.delete(card); else picked.add(card); drawHand(); /** @type {HTMLElement | null} */ (hand.querySelector(`[data-card="${card}"]`))?.focus(); },
          onkeydown: (/** @type {KeyboardEvent} */ e) => moveFocus(hand, e),
        }, [face(card)]);
      }));
    };
    /** Send the action, show the verdict. @param {string[] | null} cards null: a pass */
    const act = async (cards) => {
      const [first, ...rest] = cards ?? [];
      if (cards && first === undefined) { verdict.textContent = t("lesson_pick"); return; }
      const body = cards && first !== undefined
        ? { type: /** @type {const} */ ("play"), cards: /** @type {[string, ...string[]]} */ ([first, ...rest]) }
        : { type: /** @type {const} */ ("pass") };
      try {
        /** @type {LessonVerdict} */
        const found = await api.call("post", "/v1/lessons/first/steps/{number}", { path: { number: step.number }, body });
        verdict.dataset.verdict = found.passed ? "passed" : found.legal ? "legal" : "illegal";
        verdict.dataset.reason = found.reason ?? "";
        verdict.textContent = found.passed ? t(`done_${step.id}`) : found.legal ? t("lesson_not_goal") : t(`why_${found.reason}`);
        if (found.passed) {
          next.hidden = false;
          for (const button of [play, pass, ...hand.querySelectorAll("button")]) /** @type {HTMLButtonElement} */ (button).disabled = true;
          next.focus();
        } else {
          picked.clear();
          drawHand();
        }
      } catch (e) {
        verdict.textContent = message(e);
      }
    };
    const play = /** @type {HTMLButtonElement} */ (h("button", { id: "lesson-play", type: "button", class: "primary",
      onclick: () => void act(sorted([...picked])) }, [t("lesson_play")]));
    const pass = /** @type {HTMLButtonElement} */ (h("button", { id: "lesson-pass", type: "button",
      onclick: () => void act(null) }, [t("lesson_pass")]));
    drawHand();
    const heading = h("h2", { id: "lesson-step-title", tabindex: "-1", "data-step": step.id }, [t(`step_${step.id}`)]);
    root.replaceChildren(h("section", { id: "lesson", class: "panel lesson", "aria-labelledby": "lesson-step-title" }, [
      h("p", { id: "lesson-progress" }, [t("lesson_title"), " · ", t("lesson_step", { n: step.number, of: all.length })]),
      heading,
      h("p", { id: "lesson-how" }, [t(`how_${step.id}`)]),
      h("p", { id: "lesson-goal" }, [h("strong", {}, [t(`goal_${step.goal}`)])]),
      tablePart(step),
      hand,
      h("div", { class: "actions" }, [play, " ", pass, " ", next]),
      verdict,
    ]));
    heading.focus();
  };
  const showEnd = async () => {
    const { startSection } = await import("../start.js");
    const heading = h("h2", { id: "lesson-done", tabindex: "-1" }, [t("lesson_done_title")]);
    root.replaceChildren(
      h("section", { class: "panel lesson", "aria-labelledby": "lesson-done" }, [
        heading,
        h("p", { id: "lesson-quick" }, [h("strong", {}, [t("lesson_quick")]), " ", t("lesson_done_about")]),
      ]),
      startSection(go),
      h("p", {}, [h("button", { id: "lesson-again", type: "button", class: "small", onclick: () => showStep(0) }, [t("lesson_again")])]),
    );
    heading.focus();
  };
  showStep(0);
}
