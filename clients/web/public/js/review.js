// @ts-check
/**
 * The review of a finished match on its replay (GET /v1/matches/{id}/review), loaded only when asked for: the
 * grade of each move and, where a better one was found, that move drawn on the cards with the hint's words.
 * The first ask queues the review (202 with its progress): this asks again every second until it is done.
 */

import * as api from "./api.js";
import { faceUp, sorted } from "./cards.js";
import { h, message, setText } from "./dom.js";
import { t } from "./i18n.js";
import "./replay_words.js";

/** @typedef {import("../../types/openapi").components["schemas"]["Review"]} Review */
/** @typedef {import("../../types/openapi").components["schemas"]["ReviewDecision"]} Decision */

const POLL_MS = 1000;

/**
 * Fetch the review, saying its progress in `status` until it is done; the decisions by "hand/index".
 * @param {string} matchId @param {HTMLElement} status
 * @returns {Promise<Map<string, Decision>>}
 */
export async function loadReview(matchId, status) {
  for (;;) {
    const found = /** @type {Review | {status: string, progress: {done: number, total: number}}} */ (
      await api.call("get", "/v1/matches/{match_id}/review", { path: { match_id: matchId } }));
    if ("seats" in found) {
      setText(status, "");
      return new Map(found.seats.flatMap((seat) => seat.decisions).map((d) => [`${d.hand_number}/${d.index}`, d]));
    }
    setText(status, t("review_pending", { done: found.progress.done, total: found.progress.total }));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * What the review says of the move just made: its grade and, when graded below good, the better move and why.
 * @param {Decision | undefined} decision @returns {(HTMLElement | string)[]}
 */
export function reviewLine(decision) {
  if (!decision) return [];
  const grade = h("span", { class: `review-grade grade-${decision.grade}` }, [t(`review_${decision.grade}`)]);
  if (decision.grade === "good" || decision.grade === "forced") return [grade];
  const better = decision.best.type === "pass" ? [t("review_pass")]
    : sorted(decision.best.cards).map((c) => faceUp(c));
  return [grade, " ", h("span", { class: "review-better" }, [t("review_better"), " ", h("span", { class: "faces" }, better)]),
    h("p", { class: "review-why" }, [decision.explanation ?? ""])];
}

/**
 * The review's button and status line for the replay page; `onReady` gets the decisions once loaded.
 * @param {string} matchId @param {(decisions: Map<string, Decision>) => void} onReady @returns {HTMLElement}
 */
export function reviewControls(matchId, onReady) {
  const status = h("span", { id: "review-status", role: "status" });
  const button = /** @type {HTMLButtonElement} */ (h("button", {
    id: "review-button", type: "button",
    onclick: async () => {
      button.disabled = true;
      try {
        onReady(await loadReview(matchId, status));
        button.hidden = true;
      } catch (e) {
        setText(status, message(e));
        button.disabled = false;
      }
    },
  }, [t("review_button")]));
  return h("p", { id: "review-controls" }, [button, " ", status]);
}

const SVG = "http://www.w3.org/2000/svg";
const CHART_W = 300;
const CHART_H = 120;
/** Each seat's line: a colour and a dash (told apart without colour too). */
const STROKES = [["#004e9a", ""], ["#b00020", "6 3"], ["#0b5a32", "2 3"], ["#7a4d00", "8 3 2 3"]];

/**
 * Each seat's expected first-place chance over one hand, as the review estimated it at each of its decisions (the
 * action it took; a forced move keeps its last value): one line a seat, the move on x, the chance on y, with the
 * figures written out for a screen reader.
 * @param {Map<string, Decision>} decisions @param {number} handNumber @param {number} moves the hand's actions
 * @param {string[]} names the seats' names @returns {HTMLElement}
 */
export function chanceChart(decisions, handNumber, moves, names) {
  /** @type {(number | null)[][]} each seat's chance after each move (null before its first estimate) */
  const lines = names.map(() => []);
  /** @type {(number | null)[]} */
  const now = names.map(() => null);
  for (let index = 1; index <= moves; index += 1) {
    const decision = decisions.get(`${handNumber}/${index}`);
    if (decision && decision.taken.first !== null) now[decision.seat] = decision.taken.first;
    names.forEach((_, seat) => lines[seat].push(now[seat]));
  }
  const x = (/** @type {number} */ i) => (moves <= 1 ? 0 : (i / (moves - 1)) * CHART_W);
  const y = (/** @type {number} */ chance) => CHART_H - chance * CHART_H;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `-4 -4 ${CHART_W + 8} ${CHART_H + 8}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "chance-chart");
  lines.forEach((line, seat) => {
    const points = line.flatMap((chance, i) => (chance === null ? [] : [`${x(i).toFixed(1)},${y(chance).toFixed(1)}`]));
    if (points.length === 0) return;
    const path = document.createElementNS(SVG, "polyline");
    path.setAttribute("points", points.join(" "));
    path.setAttribute("class", `chance seat-${seat}`);
    path.setAttribute("data-seat", String(seat));
    const [colour, dash] = STROKES[seat % STROKES.length];
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", colour);
    path.setAttribute("stroke-width", "2.5");
    if (dash) path.setAttribute("stroke-dasharray", dash);
    svg.append(path);
  });
  const percent = (/** @type {number | null} */ c) => (c === null ? "—" : `${Math.round(c * 100)} %`);
  const legend = h("ul", { class: "chance-legend" }, names.map((who, seat) => h("li", {
    class: `seat-${seat}`, "data-seat": seat, style: `border-left: 1.2rem ${STROKES[seat % STROKES.length][1] ? "dashed" : "solid"} ${STROKES[seat % STROKES.length][0]}; padding-left: .4rem`,
  }, [
    t("review_chance_of", { name: who, from: percent(lines[seat].find((c) => c !== null) ?? null), to: percent(lines[seat].at(-1) ?? null) }),
  ])));
  return h("figure", { id: "review-chance", class: "review-chance" }, [
    h("figcaption", {}, [t("review_chance", { n: handNumber })]), /** @type {HTMLElement} */ (/** @type {unknown} */ (svg)), legend,
  ]);
}
