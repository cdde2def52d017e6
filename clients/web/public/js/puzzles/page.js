// @ts-check
/**
 * The puzzles page at /puzzles: a position from a real endgame (GET /v1/puzzles/next) where only two seats hold
 * cards, so both hands are shown; the solver picks cards (toggle buttons: keyboard and touch alike) and plays or
 * passes (POST /v1/puzzles/{id}/moves), the opponent replying by the solution, until solved or wrong. Signed in,
 * the account's puzzle rating moves once a puzzle.
 */

import * as api from "../api.js";
import { face, faceUp, sorted } from "../cards.js";
import { h, message } from "../dom.js";
import { t } from "../i18n.js";
import { accountToken } from "../session.js";
import "./words.js";

if (!document.querySelector("link[href='/web/puzzles.css']")) {
  document.head.append(h("link", { rel: "stylesheet", href: "/web/puzzles.css" }));
}

/** @typedef {import("../../../types/openapi").components["schemas"]["Puzzle"]} Puzzle */
/** @typedef {import("../../../types/openapi").components["schemas"]["PuzzleAction"]} PuzzleAction */

/** A move in words. @param {{type: string, cards: string[]}} move */
const moveText = (move) => (move.type === "pass" ? t("pz_pass_word") : move.cards.map(face).join(" "));

/** @param {HTMLElement} root @returns {Promise<() => void>} */
export async function showPuzzles(root) {
  const status = h("p", { id: "pz-status", role: "status" });
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const board = h("div", { id: "pz-board" });
  const log = h("ol", { id: "pz-log", class: "history" });
  const next = h("button", { id: "pz-next", type: "button" }, [t("pz_next")]);
  root.replaceChildren(h("section", { "aria-labelledby": "pz-h", class: "panel" }, [
    h("h2", { id: "pz-h" }, [t("pz_title")]), h("p", {}, [t("pz_goal")]),
    ...(accountToken() ? [] : [h("p", {}, [t("pz_sign_in")])]),
    board, status, log, next, error,
  ]));

  /** @type {Puzzle | null} */
  let puzzle = null;
  let step = 0;
  /** @type {string[]} */
  let hand = [];
  /** @type {string[]} */
  let theirs = [];
  let over = false;
  const picked = new Set();

  const draw = () => {
    if (!puzzle) return;
    const p = puzzle;
    board.dataset.puzzle = p.id;
    const cards = sorted(hand).map((card) => h("button", {
      type: "button", class: "card-pick", "data-card": card, "aria-pressed": picked.has(card) ? "true" : "false",
      disabled: over,
      onclick: () => { if (picked.has(card)) picked.delete(card); else picked.add(card); draw(); },
    }, [faceUp(card, { inline: true })]));
    const play = h("button", { id: "pz-play", type: "button", disabled: over, onclick: () => void send(false) }, [t("pz_play")]);
    const pass = h("button", { id: "pz-pass", type: "button", disabled: over, onclick: () => void send(true) }, [t("pz_pass")]);
    board.replaceChildren(
      h("p", {}, [t("pz_rating", { rating: p.rating })]),
      h("p", { id: "pz-table" }, [step === 0 && p.table ? t("pz_table", { cards: p.table.cards.map(face).join(" "), seat: p.table.seat ?? "" }) : step === 0 ? t("pz_lead") : ""]),
      h("p", { id: "pz-them" }, [t("pz_them", { seat: p.opponent_seat, n: theirs.length }), ": ", sorted(theirs).map(face).join(" ")]),
      h("p", {}, [t("pz_you", { seat: p.seat })]),
      h("div", { id: "pz-hand", role: "group", "aria-label": t("pz_you", { seat: p.seat }) }, cards),
      h("p", {}, [play, " ", pass]),
    );
  };

  /** @param {boolean} passing */
  const send = async (passing) => {
    if (!puzzle || over) return;
    if (!passing && picked.size === 0) { status.textContent = t("pz_pick"); return; }
    const cards = passing ? [] : sorted([...picked]);
    error.textContent = "";
    try {
      const answer = await api.call("post", "/v1/puzzles/{puzzle_id}/moves", {
        path: { puzzle_id: puzzle.id }, body: { step, type: passing ? "pass" : "play", cards }, token: accountToken(),
      });
      log.append(h("li", {}, [t("pz_log_you", { move: moveText({ type: passing ? "pass" : "play", cards }) })]));
      if (answer.result === "wrong") {
        over = true;
        status.textContent = t("pz_wrong", { move: answer.answer ? moveText(answer.answer) : "" });
      } else {
        hand = hand.filter((c) => !cards.includes(c));
        picked.clear();
        for (const reply of answer.replies) {
          theirs = theirs.filter((c) => !reply.cards.includes(c));
          log.append(h("li", {}, [t("pz_log_them", { move: moveText(reply) })]));
        }
        if (answer.result === "solved") { over = true; status.textContent = t("pz_solved"); }
        else {
          step = answer.next_step ?? step + 1;
          status.textContent = [t("pz_correct"), ...answer.replies.map((r) => t("pz_reply", { move: moveText(r) }))].join(" ");
        }
      }
      if (answer.rating !== null && answer.rating !== undefined) status.textContent += ` ${t("pz_your_rating", { rating: answer.rating })}`;
      draw();
      if (over) next.focus();
    } catch (e) {
      error.textContent = message(e);
    }
  };

  const load = async () => {
    error.textContent = "";
    try {
      puzzle = await api.call("get", "/v1/puzzles/next", { token: accountToken() });
      step = 0; over = false; picked.clear();
      hand = [...puzzle.hand]; theirs = [...puzzle.opponent];
      status.textContent = ""; log.replaceChildren();
      draw();
    } catch (e) {
      error.textContent = message(e);
    }
  };
  next.addEventListener("click", () => void load());
  await load();
  return () => {};
}
