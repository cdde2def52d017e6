// @ts-check
/**
 * A finished match's replay at /m/<id>/replay (GET /v1/matches/{id}/replay): its hands one move at a time, every
 * seat's cards face up. Prev and Next (the arrow keys too) step through the moves; Prev hand and Next hand jump.
 * A fairly dealt match's deal is checked here (fairdeal.js): "Deal verified", or "Deal NOT verified" and why.
 * "Review the moves" loads review.js (only then) and shows each move's grade and the better move.
 */

import * as api from "./api.js";
import { describe, faceUp, sorted } from "./cards.js";
import { h, message, setText } from "./dom.js";
import { verifyReplay } from "./fairdeal.js";
import { t } from "./i18n.js";
import { rulesText } from "./profile.js";
import "./replay_words.js"; // the replay's and its review's words

/**
 * What the table looks like after `step` moves of `hand`: each seat's cards left, the last play, who acted last.
 * @param {api.Replay["hands"][number]} hand @param {number} step
 */
function position(hand, step) {
  const played = new Set(hand.actions.slice(0, step).flatMap((a) => a.cards));
  const last = [...hand.actions.slice(0, step)].reverse().find((a) => a.type === "play") ?? null;
  return { left: hand.deal.map((cards) => cards.filter((c) => !played.has(c))), last, move: step > 0 ? hand.actions[step - 1] : null };
}

/**
 * Check the replay's fair deal and say in `into` what was found.
 * @param {HTMLElement} into @param {import("./fairdeal.js").FairReplay} replay @param {string} matchId
 */
async function showDeal(into, replay, matchId) {
  /** @type {import("./fairdeal.js").FairDealCheck | null} */
  let check;
  try {
    check = await verifyReplay(replay, matchId);
  } catch {
    check = { verified: false, hands: 0, problem: "fields" }; // a replay too malformed to compute on
  }
  if (!check) return;
  into.classList.toggle("error", !check.verified);
  setText(into, check.verified ? t("deal_verified")
    : t("deal_not_verified", { reason: t(`deal_problem_${check.problem}`, { n: check.hand ?? "" }) }));
}

/**
 * @param {HTMLElement} root @param {string} matchId
 * @returns {Promise<() => void>} stops the view (nothing to stop)
 */
export async function showReplay(root, matchId) {
  const error = h("p", { id: "error", role: "alert", class: "error" });
  root.replaceChildren(error);
  /** @type {api.Replay} */
  let replay;
  try {
    replay = await api.replay(matchId);
  } catch (e) {
    error.textContent = e instanceof api.ApiError && e.reason === "match_not_finished" ? t("replay_not_finished")
      : e instanceof api.ApiError && e.status === 404 ? t("not_found") : message(e);
    root.append(h("p", {}, [h("a", { href: "/" }, [t("home")])]));
    return () => {};
  }
  const name = (/** @type {number} */ seat) => replay.seats[seat]?.name ?? `#${seat}`;
  let handAt = 0;
  let step = 0;
  const where = h("p", { id: "replay-position" });
  const move = h("p", { id: "replay-move" });
  const last = h("div", { id: "replay-table", class: "replay-table" });
  const seats = h("ul", { id: "replay-seats", class: "replay-seats", "aria-label": t("seats_label") });
  const result = h("div", { id: "replay-result" });
  const graded = h("div", { id: "replay-review", class: "replay-review", "aria-live": "polite" });
  const chance = h("div", { id: "replay-chance" }); // each seat's first-place chance over the hand, once reviewed
  let charted = -1;
  /** @type {Map<string, import("./review.js").Decision> | null} */
  let decisions = null;
  /** @type {typeof import("./review.js") | null} */
  let reviewModule = null;
  const reviewButton = h("button", { id: "review-load", type: "button", onclick: async () => {
    reviewModule = await import("./review.js");
    reviewButton.replaceWith(reviewModule.reviewControls(matchId, (found) => { decisions = found; draw(); }));
    document.getElementById("review-button")?.click();
  } }, [t("review_button")]);
  const fair = /** @type {import("./fairdeal.js").FairReplay} */ (replay);
  // nothing for a replay dealt from its creator's seed or deal
  const deal = fair.fair_deal ? [h("p", { id: "replay-deal", class: "replay-deal", role: "status" })] : [];
  const button = (/** @type {string} */ id, /** @type {() => void} */ onclick) =>
    /** @type {HTMLButtonElement} */ (h("button", { id, type: "button", onclick: () => { onclick(); draw(); } }, [t(id.replaceAll("-", "_"))]));
  const prevHand = button("prev-hand", () => { handAt = Math.max(0, step > 0 ? handAt : handAt - 1); step = 0; });
  const prev = button("prev", () => back());
  const next = button("next", () => forward());
  const nextHand = button("next-hand", () => { handAt = Math.min(replay.hands.length - 1, handAt + 1); step = 0; });
  const forward = () => {
    if (step < (replay.hands[handAt]?.actions.length ?? 0)) step += 1;
    else if (handAt < replay.hands.length - 1) { handAt += 1; step = 0; }
  };
  const back = () => {
    if (step > 0) step -= 1;
    else if (handAt > 0) { handAt -= 1; step = replay.hands[handAt].actions.length; }
  };

  function draw() {
    const hand = replay.hands[handAt];
    const total = hand?.actions.length ?? 0;
    const atEnd = handAt >= replay.hands.length - 1 && step >= total;
    setText(where, hand ? t("replay_at", { hand: hand.hand_number, hands: replay.hands.length, step, steps: total }) : t("replay_empty"));
    const now = hand ? position(hand, step) : null;
    const done = now?.move;
    setText(move, !hand ? "" : !done ? t("ev_started", { n: hand.hand_number })
      : done.type === "play" ? t("ev_played", { name: name(done.seat), what: describe(done.cards) }) : t("ev_passed", { name: name(done.seat) }));
    last.replaceChildren(...(now?.last ? [h("span", {}, [t("last_play", { name: name(now.last.seat) }), " "]),
      h("span", { class: "faces" }, sorted(now.last.cards).map((c) => faceUp(c)))] : [t("table_empty")]));
    seats.replaceChildren(...replay.seats.map((seat, i) => {
      const cards = now?.left[i] ?? [];
      return h("li", { class: `replay-seat${done?.seat === i ? " acted" : ""}`, "data-seat": i, "aria-current": done?.seat === i ? "true" : false }, [
        h("strong", {}, [name(i)]), " ", h("span", { class: "seat-facts" }, [
          seat.bot ? `${t(`bot_${seat.bot}`)} · ` : "", cards.length === 1 ? t("card_left") : t("cards_left", { n: cards.length })]),
        h("span", { class: "faces" }, cards.map((c) => faceUp(c))),
      ]);
    }));
    result.replaceChildren(...(atEnd ? [h("p", { id: "replay-winner" }, [
      replay.result.abandoned ? t("ev_abandoned") : replay.result.winner === null ? t("no_winner") : t("winner", { name: name(replay.result.winner) })]),
    h("p", { id: "replay-scores" }, [`${t("scores")}: `, replay.seats.map((_, i) => `${name(i)} ${replay.result.scores[i] ?? 0}`).join(", ")])] : []));
    graded.replaceChildren(...(decisions && reviewModule && hand && done
      ? reviewModule.reviewLine(decisions.get(`${hand.hand_number}/${step}`)) : []));
    if (decisions && reviewModule && hand && charted !== hand.hand_number) {
      charted = hand.hand_number;
      chance.replaceChildren(reviewModule.chanceChart(decisions, hand.hand_number, total, replay.seats.map((_, i) => name(i))));
    }
    const first = handAt === 0 && step === 0;
    const focused = document.activeElement;
    prev.disabled = prevHand.disabled = first;
    next.disabled = nextHand.disabled = atEnd;
    if (handAt >= replay.hands.length - 1) nextHand.disabled = true;
    // a button that was just disabled (at either end) hands the focus to its opposite
    if (focused instanceof HTMLButtonElement && focused.disabled) ([prev, prevHand].includes(focused) ? next : prev).focus();
  }

  /** The arrow keys step too, wherever the focus is within the replay. @param {KeyboardEvent} event */
  const keys = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") forward();
    else if (event.key === "ArrowLeft") back();
    else return;
    event.preventDefault();
    draw();
  };
  root.replaceChildren(h("section", { id: "replay", "aria-labelledby": "replay-h", onkeydown: keys }, [
    h("h2", { id: "replay-h" }, [t("replay_title", { names: replay.seats.map((_, i) => name(i)).join(", ") })]),
    h("p", { id: "replay-rules" }, [rulesText(replay.rules)]), ...deal,
    h("div", { class: "actions replay-controls", role: "group", "aria-label": t("replay_controls") }, [prevHand, prev, next, nextHand]),
    // where the replay is and the move made there, announced together at each step
    h("div", { id: "replay-now", "aria-live": "polite", "aria-atomic": "true" }, [where, move]), graded, chance, last, seats, result,
    reviewButton,
    h("p", { class: "replay-help" }, [t("replay_keys")]),
  ]), error);
  draw();
  next.focus();
  if (deal.length) void showDeal(deal[0], fair, matchId);
  return () => {};
}
