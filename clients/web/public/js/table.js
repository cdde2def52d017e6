// @ts-check
/** The table of one match: your hand, the seats, the table play, the clock, events in words, results. */

import * as api from "./api.js";
import { results, seatBoxes, tablePlay } from "./board.js";
import { describe, face, isRed, judge, label, sorted, suitOf } from "./cards.js";
import { h } from "./dom.js";
import { fill, t } from "./i18n.js";
import { forgetSeat, heldSeat, keepSeat } from "./store.js";
import { eventWords, hintWords } from "./words.js";

/** Milliseconds between other seats' plays as the page shows them (localStorage "tienlen.pace" overrides). */
const PACE_MS = Number(localStorage.getItem("tienlen.pace") ?? "700");
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {unknown} e */
const message = (e) => (e instanceof Error ? e.message : String(e));

/** Set a text only when it changes, so a live region announces changes, not every redraw. @param {HTMLElement} el @param {string} text */
const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };

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
 * @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the table (its stream and clock)
 */
export async function showTable(root, matchId, go) {
  const found = heldSeat(matchId);
  if (!found) return showJoin(root, matchId, go);
  const held = found;
  /** @type {api.SeatView} */
  let view;
  try {
    view = await api.view(matchId, held.token);
  } catch (e) {
    const forget = h("button", { type: "button", id: "forget", onclick: () => { forgetSeat(matchId); go("/"); } }, [t("forget")]);
    root.replaceChildren(h("p", { role: "alert", id: "error", class: "error" }, [message(e)]),
      h("p", {}, [h("a", { href: "/" }, [t("home")]), " ", forget]));
    return () => {};
  }
  /** @type {api.Legal | null} */
  let legal = null;
  /** @type {Set<string>} */
  let selected = new Set();
  let busy = false; // a request of this page is under way
  let revealing = false; // events are being shown one after another
  let stopped = false;
  let lastSeq = view.last_seq;
  /** @type {api.MatchEvent[]} */
  const queue = [];

  const selection = h("p", { id: "selection", "aria-live": "polite" });
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const hintLine = h("p", { id: "hint-text", "aria-live": "polite" });
  // the log becomes a live region once the earlier events are in: each new entry is announced, not the history
  const log = h("ol", { id: "log", reversed: true, "aria-relevant": "additions" });
  const hand = h("div", { id: "hand", role: "group", "aria-label": t("your_hand") });
  const seats = h("div", { id: "seats", role: "list", "aria-label": t("seats_label") });
  const table = h("div", { id: "table-play-box" });
  const clockText = h("span", { id: "clock-text" });
  const clock = h("span", { id: "clock", role: "timer", hidden: true }, [clockIcon(), " ", clockText]);
  // who is on turn, announced when it changes; "…" (not announced) while other seats' plays are being shown
  const turn = h("span", { id: "turn-text", "aria-live": "polite" });
  const showing = h("span", { id: "showing", "aria-hidden": "true" });
  const share = h("p", { id: "share" });
  const resultBox = h("section", { id: "results" });
  let resultsShown = ""; // what resultBox shows, so it is drawn again only when that changes
  /** @type {number | null} */
  let handOver = null; // a hand just over, shown on the felt until the next one starts
  const button = (/** @type {string} */ id, /** @type {() => void} */ onclick) =>
    /** @type {HTMLButtonElement} */ (h("button", { id, type: "button", onclick }, [t(id)]));
  const playButton = button("play", () => void send("play"));
  const passButton = button("pass", () => void send("pass"));
  const hintButton = button("hint", () => void askHint());
  const leaveButton = button("leave", () => void doLeave());
  const link = `${location.origin}/m/${encodeURIComponent(matchId)}`;
  root.replaceChildren(
    share,
    h("div", { id: "board" }, [
      seats,
      h("section", { id: "table", "aria-label": t("table_label") }, [table, h("p", { id: "turn" }, [turn, showing, clock])]),
    ]),
    h("section", { id: "mine", "aria-label": t("your_hand") }, [hand, selection,
      h("div", { class: "actions", role: "group", "aria-label": t("actions_label") }, [playButton, passButton, hintButton, leaveButton]),
      hintLine, error]),
    resultBox,
    h("section", { id: "events" }, [h("h2", {}, [t("log")]), log]),
  );
  const name = (/** @type {number | undefined} */ seat) =>
    seat === undefined ? "?" : seat === view.seat ? t("you") : view.seats[seat]?.name ?? `#${seat}`;
  const myTurn = () => view.status === "playing" && view.turn === view.seat && !revealing;

  /** Draw everything from `view`, keeping the keyboard focus where it was. */
  function render() {
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusedCard = active?.dataset.card;
    share.replaceChildren(...(view.status === "waiting"
      ? [t("waiting"), " ", h("a", { href: link, id: "join-link" }, [link])] : []));
    seats.replaceChildren(...seatBoxes(view));
    table.replaceChildren(tablePlay(view, name, { handOver, showing: revealing }));
    setText(turn, view.status !== "playing" || view.turn === null || revealing ? "" :
      view.turn === view.seat ? t("your_turn") : t("turn_of", { name: name(view.turn) }));
    setText(showing, revealing && view.status === "playing" ? t("showing") : "");
    selected = new Set([...selected].filter((c) => view.cards.includes(c)));
    hand.replaceChildren(...sorted(view.cards).map((card) => h("button", {
      type: "button", class: isRed(card) ? "card red" : "card", "data-card": card, "data-suit": suitOf(card), "aria-label": label(card),
      "aria-pressed": selected.has(card) ? "true" : "false",
      onclick: () => { if (selected.has(card)) selected.delete(card); else selected.add(card); render(); },
      onkeydown: (/** @type {KeyboardEvent} */ e) => moveFocus(e),
    }, [face(card)])));
    const verdict = judge([...selected], myTurn() ? legal : null, view);
    setText(selection, verdict.text);
    const mine = myTurn() && !busy;
    playButton.disabled = !(mine && verdict.ok);
    passButton.disabled = !(mine && legal?.can_pass);
    hintButton.disabled = !mine;
    leaveButton.disabled = busy;
    const resultsNow = JSON.stringify([view.hands, view.status, view.winner, view.seats.map((s) => s.score)]);
    if (resultsNow !== resultsShown) {
      resultsShown = resultsNow;
      resultBox.replaceChildren(...results(view, name));
      if (view.status === "finished") {
        resultBox.append(h("p", { id: "winner" }, [view.winner === null ? t("no_winner") : t("winner", { name: name(view.winner) })]),
          h("button", { id: "rematch", type: "button", onclick: () => void doRematch() }, [t("rematch")]));
      }
    }
    const again = resultBox.querySelector("#rematch");
    if (again instanceof HTMLButtonElement) again.disabled = busy;
    tick();
    const back = focusedCard ? hand.querySelector(`[data-card="${focusedCard}"]`) : null;
    if (back instanceof HTMLElement) back.focus();
    else if (active && (!active.isConnected || (active instanceof HTMLButtonElement && active.disabled))) {
      (hand.querySelector("button") ?? root).focus();
    }
  }

  /** Arrow keys, Home and End move along the hand. @param {KeyboardEvent} event */
  function moveFocus(event) {
    const buttons = [...hand.querySelectorAll("button")];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (event.target));
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    buttons[(to + buttons.length) % buttons.length]?.focus();
  }

  /** The turn clock, counted down from the view's turn_deadline. */
  function tick() {
    const counting = Boolean(view.turn_deadline) && view.status === "playing" && !revealing;
    clock.hidden = !counting;
    setText(clockText, counting && view.turn_deadline
      ? t("clock_left", { s: Math.max(0, Math.ceil((Date.parse(view.turn_deadline) - Date.now()) / 1000)) }) : "");
  }

  let asked = 0;
  /** The seat's view and, on its turn, its legal plays: the truth after the events shown. */
  async function refresh() {
    const ask = ++asked;
    const fresh = await api.view(matchId, held.token);
    const options = fresh.status === "playing" && fresh.turn === fresh.seat ? await api.legal(matchId, held.token) : null;
    if (ask !== asked || stopped) return;
    view = fresh;
    legal = options;
    render();
  }
  const refreshShowingErrors = () => refresh().catch((e) => { error.textContent = message(e); });

  /** Events to show: each once, other seats' plays one after another; then the view is asked again. */
  /** @param {api.MatchEvent[]} events */
  function enqueue(events) {
    for (const event of events) {
      if (event.seq <= lastSeq) continue;
      lastSeq = event.seq;
      queue.push(event);
    }
    if (queue.length && !revealing) void reveal();
  }

  async function reveal() {
    revealing = true;
    render();
    while (queue.length && !stopped) {
      const event = /** @type {api.MatchEvent} */ (queue.shift());
      showEvent(event);
      apply(event);
      render();
      if ((event.type === "played" || event.type === "passed") && event.seat !== view.seat) await sleep(PACE_MS);
      if (event.type === "hand_ended") await sleep(PACE_MS * 3); // the hand's end on the felt for a moment
    }
    revealing = false;
    await refreshShowingErrors();
  }

  /** What an event changes on the table, shown at once (the next refresh brings the whole truth). */
  /** @param {api.MatchEvent} event */
  function apply(event) {
    if (event.seq <= view.last_seq) return; // the view has it already
    view.last_seq = event.seq;
    if (event.type === "played") {
      const seat = view.seats[event.seat];
      view.table = { seat: event.seat, cards: event.cards, kind: event.kind };
      if (seat) seat.cards_left = Math.max(0, seat.cards_left - event.cards.length);
      if (event.seat === view.seat) view.cards = view.cards.filter((c) => !event.cards.includes(c));
    } else if (event.type === "passed") {
      const seat = view.seats[event.seat];
      if (seat) seat.passed = true;
    } else if (event.type === "table_cleared") {
      view.table = null;
      for (const s of view.seats) s.passed = false;
    } else if (event.type === "went_out") {
      const seat = view.seats[event.seat];
      if (seat) seat.place = event.place;
    } else if (event.type === "hand_ended") {
      handOver = event.hand_number;
      view.table = null;
    } else if (event.type === "hand_started") {
      handOver = null;
    }
  }

  /** @param {api.MatchEvent} event */
  function showEvent(event) {
    const words = eventWords(event, name);
    if (words) log.prepend(h("li", { "data-type": event.type, "data-seq": event.seq, "data-seat": api.seatOf(event) ?? false }, [words]));
  }

  /** @param {"play" | "pass"} type */
  async function send(type) {
    if (busy) return;
    busy = true;
    error.textContent = "";
    render();
    try {
      const answer = await api.act(matchId, held.token, type === "play"
        ? { type, cards: [...selected], version: view.version } : { type, version: view.version });
      selected = new Set();
      hintLine.textContent = "";
      busy = false;
      enqueue(/** @type {api.MatchEvent[]} */ (answer.events));
      if (!revealing) await refreshShowingErrors();
    } catch (e) {
      busy = false;
      error.textContent = message(e);
      await refresh().catch(() => render());
    }
  }

  async function askHint() {
    if (busy) return;
    busy = true;
    error.textContent = "";
    render();
    try {
      const advice = await api.hint(matchId, held.token);
      const why = hintWords(advice, name);
      if (advice.action.type === "play") {
        selected = new Set(advice.action.cards);
        hintLine.replaceChildren(...fill("hint_play", { what: describe(advice.action.cards), why }));
      } else {
        selected = new Set();
        hintLine.replaceChildren(...fill("hint_pass", { why }));
      }
    } catch (e) {
      error.textContent = message(e);
    }
    busy = false;
    render();
  }

  async function doLeave() {
    busy = true;
    render();
    try {
      await api.leave(matchId, held.token);
    } catch (e) {
      if (!(e instanceof api.ApiError) || e.status >= 500) {
        busy = false;
        error.textContent = message(e);
        render();
        return;
      }
    }
    forgetSeat(matchId);
    go("/");
  }

  async function doRematch() {
    busy = true;
    render();
    try {
      const next = await api.rematch(matchId, held.token);
      keepSeat(next.match_id, { seat: next.seat, token: next.token, name: held.name });
      go(`/m/${encodeURIComponent(next.match_id)}`);
    } catch (e) {
      busy = false;
      error.textContent = message(e);
      render();
    }
  }

  // drawn at once, its buttons held (busy) until the log and the legal plays are in
  busy = true;
  render();
  // the events before the page came, in the log at once; then the live ones as they come
  for (const event of await api.eventsSoFar(matchId, 0, view.last_seq).catch(() => [])) showEvent(event);
  log.setAttribute("aria-live", "polite");
  const stopFollowing = api.follow(matchId, view.last_seq, (event) => enqueue([event]));
  const timer = setInterval(tick, 250);
  legal = myTurn() ? await api.legal(matchId, held.token).catch(() => null) : null;
  busy = false;
  render();
  return () => { stopped = true; stopFollowing(); clearInterval(timer); };
}

/** Someone with the link and no seat: join an open seat. */
/** @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go */
async function showJoin(root, matchId, go) {
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "join-name", value: localStorage.getItem("tienlen.name") || t("default_name"), maxlength: 40, required: true }));
  const error = h("p", { role: "alert", id: "error", class: "error" });
  const join = async () => {
    try {
      const token = await api.join(matchId, input.value);
      localStorage.setItem("tienlen.name", input.value);
      keepSeat(matchId, { seat: token.seat, token: token.token, name: input.value });
      go(`/m/${encodeURIComponent(matchId)}`);
    } catch (e) {
      error.textContent = message(e);
    }
  };
  const seats = h("ul", { id: "join-seats" });
  root.replaceChildren(h("h2", {}, [t("join")]), seats, h("label", {}, [t("your_name"), " ", input]),
    h("button", { id: "join", type: "button", onclick: join }, [t("join")]), error);
  try {
    const match = await api.getMatch(matchId);
    seats.replaceChildren(...match.seats.map((s) => h("li", {}, [s.open ? t("open_seat") : `${s.name}${s.bot ? ` · ${t(`bot_${s.bot}`)}` : ""}`])));
  } catch (e) {
    error.textContent = message(e);
  }
  return () => {};
}
