// @ts-check
/** Cards and selections: names, order, and what the page says about a selection, judged from /legal. */

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
export const SUITS = ["S", "C", "D", "H"];
const SYMBOL = /** @type {Record<string, string>} */ ({ S: "♠", C: "♣", D: "♦", H: "♥" });

/** @param {string} card @returns {{rank: string, suit: string}} */
export const parts = (card) => ({ rank: card.slice(0, -1), suit: card.slice(-1) });
/** @param {string} card */
export const order = (card) => RANKS.indexOf(parts(card).rank) * 4 + SUITS.indexOf(parts(card).suit);
/** @param {string} card "3♠" */
export const face = (card) => parts(card).rank + SYMBOL[parts(card).suit];
/** @param {string} card its suit's symbol, "♠" */
export const suitOf = (card) => SYMBOL[parts(card).suit];
/** @param {string} card "3 of spades", spoken */
export const label = (card) => t("card", { rank: t(`r${parts(card).rank}`), suit: t(parts(card).suit) });
/** @param {string} card */
export const isRed = (card) => "DH".includes(parts(card).suit);
/** @param {string[]} cards low to high */
export const sorted = (cards) => [...cards].sort((a, b) => order(a) - order(b));

/**
 * A card shown face up (not a button): a small white card with its rank and suit, and its name for screen readers;
 * `inline` is the small form used within a sentence.
 * @param {string} card @param {{inline?: boolean}} [options]
 */
export const faceUp = (card, options = {}) => h("span", {
  class: `face${options.inline ? " inline" : ""}${isRed(card) ? " red" : ""}`, role: "img", "aria-label": label(card),
  "data-suit": suitOf(card), "data-card": options.inline ? false : card,
}, [face(card)]);

/**
 * A play shown in a sentence, its cards face up: "pair of 9s 9♠ 9♦" (a single is its card alone).
 * @param {string[]} cards
 * @returns {(string | Node)[]}
 */
export function shown(cards) {
  const faces = sorted(cards).map((c) => faceUp(c, { inline: true }));
  return cards.length === 1 ? faces : [describe(cards), " ", ...faces];
}

/** @param {string} rank @param {string} kind @param {Record<string, string | number>} [extra] */
const named = (rank, kind, extra = {}) => t(kind, { r: t(`r${rank}`), rs: t(`p${rank}`), ...extra });

/**
 * The kind of a selection and its name ("pair of 9s"), or the reason it is no combination.
 * @param {string[]} cards
 * @returns {{kind: string, text: string} | {problem: string}}
 */
export function classify(cards) {
  const low = sorted(cards);
  const ranks = low.map((c) => RANKS.indexOf(parts(c).rank));
  const n = cards.length;
  if (n === 0) return { problem: "not_combo" };
  if (n === 1) return { kind: "single", text: t("single", { c: face(low[0]) }) };
  const rank = parts(low[0]).rank;
  if (ranks.every((x) => x === ranks[0])) {
    const kind = ["", "", "pair", "triple", "four_of_a_kind"][n];
    return kind ? { kind, text: named(rank, kind) } : { problem: "not_combo" };
  }
  const distinct = [...new Set(ranks)];
  const inRow = distinct.every((x, i) => i === 0 || x === distinct[i - 1] + 1);
  const lo = RANKS[distinct[0]];
  const hi = RANKS[distinct[distinct.length - 1]];
  const hasTwo = ranks.includes(12);
  if (n === 2) return { problem: inRow ? "need_run" : "need_pair" };
  if (distinct.length === n) {
    if (!inRow) return { problem: "run_gap" };
    return hasTwo ? { problem: "no_two_run" } : { kind: "straight", text: t("straight", { lo, hi }) };
  }
  const pairs = n >= 6 && n % 2 === 0 && distinct.length === n / 2
    && distinct.every((x) => ranks.filter((y) => y === x).length === 2);
  if (pairs && inRow) {
    return hasTwo ? { problem: "no_two_run" }
      : { kind: "consecutive_pairs", text: t("consecutive_pairs", { n: n / 2, lo, hi }) };
  }
  return { problem: "not_combo" };
}

/**
 * A play in words: "pair of 9s", "run 5–7", "9♠".
 * @param {string[]} cards
 */
export function describe(cards) {
  const found = classify(cards);
  return "problem" in found ? sorted(cards).map(face).join(" ") : found.text;
}

/**
 * What the page says about a selection now, and whether Play may send it. Judged from the seat's view and its
 * /legal answer (fetched once per turn), never by asking the server per click.
 * @param {string[]} selected
 * @param {import("./api.js").Legal | null} legal
 * @param {import("./api.js").SeatView} view
 * @returns {{ok: boolean, text: string}}
 */
export function judge(selected, legal, view) {
  const mine = view.status === "playing" && view.turn === view.seat;
  if (view.status === "finished") return { ok: false, text: "" }; // the match is over: no turn to wait for
  if (selected.length === 0) return { ok: false, text: mine ? t("pick") : t("not_turn") };
  const found = classify(selected);
  if ("problem" in found) return { ok: false, text: t(found.problem) };
  if (!mine || !legal) return { ok: false, text: t("wait_turn", { what: found.text }) };
  const key = sorted(selected).join(" ");
  const play = legal.plays.find((p) => sorted(p.cards).join(" ") === key);
  const table = view.table;
  if (play) {
    if (!table) return { ok: true, text: t("leads", { what: found.text }) };
    return { ok: true, text: t(play.kind === table.kind ? "beats" : "bombs", { what: found.text }) };
  }
  if (view.start_card && !selected.includes(view.start_card)) {
    return { ok: false, text: t("must_include", { card: face(view.start_card) }) };
  }
  if (view.reentry) return { ok: false, text: t("reentry") };
  if (table) return { ok: false, text: t("no_beat", { what: found.text, table: describe(table.cards) }) };
  return { ok: false, text: t("not_allowed", { what: found.text }) };
}

/**
 * The hand grouped by combination, each group low to high: cards of one rank together (pairs, triples, fours),
 * then runs of 3 or more among the cards left (never holding a 2), then the singles left one by one; the groups in
 * the order of their lowest card.
 * @param {string[]} cards
 * @returns {string[][]}
 */
export function grouped(cards) {
  /** @type {Map<number, string[]>} */
  const byRank = new Map();
  for (const card of sorted(cards)) {
    const rank = RANKS.indexOf(parts(card).rank);
    byRank.set(rank, [...(byRank.get(rank) ?? []), card]);
  }
  /** @type {string[][]} */
  const groups = [];
  /** @type {string[]} */
  const singles = [];
  for (const same of byRank.values()) {
    if (same.length > 1) groups.push(same);
    else singles.push(same[0]);
  }
  /** @type {string[]} */
  let run = [];
  const endRun = () => {
    if (run.length >= 3) groups.push(run);
    else groups.push(...run.map((c) => [c]));
    run = [];
  };
  for (const card of singles) {
    const rank = RANKS.indexOf(parts(card).rank);
    const last = run.length ? RANKS.indexOf(parts(run[run.length - 1]).rank) : -2;
    if (rank !== last + 1 || rank === 12) endRun();
    run.push(card);
  }
  endRun();
  return groups.sort((a, b) => order(a[0]) - order(b[0]));
}
