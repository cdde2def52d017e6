// @ts-check
/**
 * The table of one match: your hand, the seats, the play on the felt, the clock, events in words, results.
 *
 * Each job is a part of its own (table/*.js); this module reads the seat, lays the parts out, draws them from one
 * small state object (table/state.js) and starts following the match.
 */

import * as api from "./api.js";
import { h, message } from "./dom.js";
import { t } from "./i18n.js";
import { forgetIfRevoked, signedIn } from "./session.js";
import { heldSeat, keepSeat } from "./store.js";
import { actionsPart } from "./table/actions.js";
import { feltPart } from "./table/felt.js";
import { follower, seatReader } from "./table/follow.js";
import { autoPlayOn, handPart, setAutoPlay } from "./table/hand.js";
import { leavingPart } from "./table/leaving.js";
import { logPart } from "./table/log.js";
import * as motion from "./table/motion.js";
import { resultsPart } from "./table/results.js";
import { reviewPart } from "./table/review.js";
import { seatsPart } from "./table/seats.js";
import { playSound, setSound, soundOn, yourTurnSound } from "./table/sound.js";
import { createState, keepSelectionInHand, myTurn } from "./table/state.js";

/**
 * @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the table (its stream and clock)
 */
export async function showTable(root, matchId, go) {
  /** @type {{held: import("./store.js").HeldSeat, view: api.SeatView} | null} */
  let seated;
  try {
    seated = await readSeat(matchId);
  } catch (e) {
    (await import("./table/join.js")).showUnreadable(root, matchId, go, e); // loaded only then
    return () => {};
  }
  if (!seated) return (await import("./table/join.js")).showJoin(root, matchId, go); // no seat here: join or watch
  const { held, view } = seated;
  const error = h("p", { id: "error", role: "alert", class: "error" });
  /** @type {import("./table/state.js").Table} */
  const table = {
    state: createState(matchId, held, view),
    redraw,
    showError: (problem) => { error.textContent = message(problem); },
  };
  const state = table.state;
  const seats = seatsPart(state);
  const felt = feltPart(state);
  const hand = handPart(table);
  const log = logPart(state);
  const following = follower(table, log.show, seatReader(state));
  /** @type {import("./table/skip.js").SkipPart | null} */
  let out = null; // Skip, once the seat is out of a hand (its module loaded then)
  const actions = actionsPart(table, following);
  const leaving = leavingPart(table, go);
  const results = resultsPart(state, leaving.rematch);
  const review = reviewPart(table, () => (hand.element.querySelector("button") ?? root).focus());
  const cue = h("p", { id: "turn-cue", "aria-hidden": "true", hidden: true }, [t("your_turn")]);
  const mine = h("section", { id: "mine", "aria-label": t("your_hand") }, [
    h("div", { class: "hand-tools" }, [cue, hand.sortToggle]), hand.element, hand.selection,
    h("div", { class: "actions", role: "group", "aria-label": t("actions_label") }, [...actions.buttons, leaving.element]),
    actions.hintLine, error]);
  const board = h("div", { id: "board", class: "felt" }, [seats.seats, felt.element]);
  root.replaceChildren(seats.share, board, review.element, mine, results.element, settingsPart(), log.element);
  let wasMyTurn = false;

  // a button disabled only while a request of the page is under way: the focus goes back to it after (Hint, say)
  /** @type {HTMLElement | null} */
  let parked = null;

  /** Draw every part from the state, keeping the keyboard focus where it was. */
  function redraw() {
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusedCard = active?.dataset.card;
    keepSelectionInHand(state);
    const was = motion.before();
    for (const part of [seats, felt, hand, actions, leaving, results, review]) part.draw();
    if (state.out) loadSkip();
    out?.draw();
    if (motion.after(was)) playSound();
    // the your-turn cue: the hand lit, a word above it, and (sounds on) two notes when the turn comes
    const turnNow = myTurn(state) && !state.review;
    if (turnNow && !wasMyTurn) yourTurnSound();
    wasMyTurn = turnNow;
    mine.classList.toggle("my-turn", turnNow);
    board.classList.toggle("my-turn", turnNow);
    cue.hidden = !turnNow;
    mine.hidden = state.review !== null;
    // the match over: its score card comes right under the felt, the empty hand put away
    const over = state.view.status === "finished";
    hand.element.hidden = over;
    hand.sortToggle.hidden = over;
    if (over && results.element.nextElementSibling !== mine) root.insertBefore(results.element, mine);
    if (state.review) { // a hand under review: the focus on Next hand (the hand and its buttons are put away)
      parked = null;
      review.focus();
      return;
    }
    const back = focusedCard ? hand.element.querySelector(`[data-card="${focusedCard}"]`) : null;
    // the parked button still has the focus, unless the focus moved elsewhere meanwhile
    const had = parked && (active === null || active === parked || active === document.body) ? parked : active;
    parked = null;
    const lost = had && (!had.isConnected || (had instanceof HTMLButtonElement && had.disabled));
    if (back instanceof HTMLElement) back.focus();
    else if (had && lost && state.busy && had.isConnected) parked = had;
    else if (had && lost) (hand.element.querySelector("button") ?? (out?.shown() ? out.button : root)).focus();
    else if (had && had !== active) had.focus();
  }

  let skipAsked = false;
  /** Skip under the felt, loaded when the seat first goes out; it has the focus if the focus is adrift then. */
  function loadSkip() {
    if (skipAsked) return;
    skipAsked = true;
    void import("./table/skip.js").then(({ skipPart }) => {
      const part = skipPart(state, following.skip);
      board.after(part.element); // in the page before it speaks (its line is a live region)
      requestAnimationFrame(() => {
        out = part;
        redraw();
        const at = document.activeElement;
        if (part.shown() && (at === null || at === document.body || at === root)) part.button.focus();
      });
    });
  }

  // drawn at once, its buttons held (busy) until the log and the legal plays are in
  state.busy = true;
  redraw();
  // the events before the page came, in the log at once; then the live ones as they come
  await log.showHistory();
  const stopFollowing = following.start();
  const timer = setInterval(felt.tick, 250);
  let stopChat = () => {};
  // the chat, folded: its module loads once opened; a seat reads both rooms
  const fold = h("details", { id: "chat", class: "chat panel" }, [h("summary", {}, [t("chat")])]);
  log.element.before(fold);
  fold.addEventListener("toggle", async () => {
    const chat = (await import("./social/chat.js")).chatPart;
    if (!state.stopped) stopChat = chat({ matchId, after: state.view.last_seq, token: held.token, room: "table", seated: true, into: fold }).stop;
  }, { once: true });
  state.legal = myTurn(state) && !state.stopped ? await api.legal(matchId, held.token).catch(() => null) : null;
  state.busy = false;
  redraw();
  return () => { state.stopped = true; stopFollowing(); stopChat(); clearInterval(timer); };
}

/** The table's settings: play a selection that cannot be extended at once (on by default), sounds (off by default). */
function settingsPart() {
  /** @param {string} id @param {string} key @param {boolean} on @param {(on: boolean) => void} set */
  const toggle = (id, key, on, set) => h("label", { class: "check" }, [
    h("input", { type: "checkbox", id, checked: on, onchange: (/** @type {Event} */ e) => set(/** @type {HTMLInputElement} */ (e.target).checked) }),
    t(key),
  ]);
  return h("details", { id: "table-settings" }, [h("summary", {}, [t("table_settings")]),
    toggle("autoplay", "autoplay_setting", autoPlayOn(), setAutoPlay),
    toggle("sounds", "sounds_setting", soundOn(), setSound)]);
}

/**
 * The seat this browser acts for at the match, and its view: the seat kept here (its token: a seat's, or the
 * account's), else, signed in, the account's token, which acts for any seat the account holds (a quick-play match,
 * a seat taken in another browser); it is kept then, as a seat of this browser. A kept token the server no longer
 * knows (a session signed out since) gives way to the session's. Null: no seat here (the page offers to join).
 * @param {string} matchId
 * @returns {Promise<{held: import("./store.js").HeldSeat, view: api.SeatView} | null>} throws when a kept seat's view cannot be read
 */
async function readSeat(matchId) {
  const held = heldSeat(matchId);
  const session = signedIn();
  if (held) {
    try {
      return { held, view: await api.view(matchId, held.token) };
    } catch (e) {
      const revoked = e instanceof api.ApiError && e.status === 401;
      if (!revoked || !session || session.token === held.token) throw e;
    }
  }
  if (!session) return null;
  try {
    const view = await api.view(matchId, session.token);
    const seat = { seat: view.seat, token: session.token, name: session.name };
    keepSeat(matchId, seat);
    return { held: seat, view };
  } catch (e) {
    forgetIfRevoked(e);
    if (held) throw e;
    return null; // the account holds no seat here (or the match is gone: the join page says so)
  }
}
