// @ts-check
/**
 * Watching a match at /m/<id>/watch: the public table only (GET /v1/matches/{id} and its events, which hold no
 * hidden card, asked without a token): the seats with their names, bots, cards left (as backs), passes and scores;
 * the play on the felt, whose turn and the clock; the hand number; each hand's result, and the final score card.
 * The stream is followed as the seat's page follows it (table/follow.js: each play in turn, cards flying in from
 * their seat; the browser's EventSource reconnects with Last-Event-ID), by the seat's own parts; the spectators' chat
 * (social/chat.js).
 */

import * as api from "./api.js";
import { seatBoxes } from "./board.js";
import { h, message, setText } from "./dom.js";
import { t } from "./i18n.js";
import { signedIn } from "./session.js";
import { feltPart } from "./table/felt.js";
import { PACE_MS, follower } from "./table/follow.js";
import { logPart } from "./table/log.js";
import * as motion from "./table/motion.js";
import { watchResultPart } from "./watch/result.js";
import { createWatchState, watchReader, watcherView } from "./watch/state.js";
import "./social/words.js"; // the words of watching, loaded with it

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param {HTMLElement} root @param {string} matchId
 * @returns {Promise<() => void>} stops watching (the stream and the clock)
 */
export async function showWatch(root, matchId) {
  /** @type {import("./watch/state.js").WatchedMatch} */
  let match;
  try {
    match = await api.getMatch(matchId);
  } catch (e) {
    root.replaceChildren(h("p", { role: "alert", id: "error", class: "error" }, [message(e)]),
      h("p", {}, [h("a", { href: "/" }, [t("home")])]));
    return () => {};
  }
  const state = createWatchState(match);
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const shown = { state, redraw, showError: (/** @type {unknown} */ problem) => { error.textContent = message(problem); } };
  const title = h("h2", { id: "watch-title" }, [t("watching", { names: match.seats.map((s) => s.name ?? "?").join(", ") })]);
  const facts = h("p", { id: "watch-facts" });
  const seats = h("div", { id: "seats", role: "list", "aria-label": t("seats_label") });
  const felt = feltPart(state);
  const log = logPart(state);
  const result = watchResultPart(state);
  const following = follower(shown, log.show, watchReader(state));
  // a hand's end: its result shown (the match read after it), a moment before the next hand's plays
  state.betweenHands = async (ended) => {
    const after = await api.getMatch(matchId).catch(() => null);
    if (after && !state.stopped) state.ended = { ended, view: watcherView(after) };
    redraw();
    await sleep(PACE_MS * 3);
  };
  const board = h("div", { id: "board", class: "felt" }, [seats, felt.element]);
  root.replaceChildren(h("section", { id: "watch-head", "aria-labelledby": "watch-title" }, [title, facts, error]),
    board, result.element, log.element);

  /** Draw every part from the state (a new play flies in from its seat). */
  function redraw() {
    const { view } = state;
    const was = motion.before();
    seats.replaceChildren(...seatBoxes(view));
    felt.draw();
    result.draw();
    motion.after(was);
    const words = [view.status === "waiting" ? t("felt_waiting") : t("hand_no", { n: view.hand_number })];
    if (state.spectators !== null) words.push(t("n_watching", { n: state.spectators }));
    setText(facts, words.join(" · "));
  }

  redraw();
  await log.showHistory();
  const stop = following.start();
  const timer = setInterval(felt.tick, 250);
  // the spectators' chat: a signed-in watcher writes in it (and may mute, block, report); signed out, it only reads
  const session = signedIn();
  const { chatPart } = await import("./social/chat.js");
  const chat = chatPart({ matchId, after: match.last_seq, token: session?.token ?? null, room: session ? "spectators" : null, seated: false });
  log.element.before(chat.element);
  return () => { state.stopped = true; stop(); chat.stop(); clearInterval(timer); };
}
