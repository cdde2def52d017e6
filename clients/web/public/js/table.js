// @ts-check
/** The table of one match: your hand, the seats, the table play, the clock, events in words, results. */

import * as api from "./api.js";
import { results, seatBoxes, tablePlay } from "./board.js";
import { describe, face, isRed, judge, label, sorted } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { forgetSeat, heldSeat, keepSeat } from "./store.js";
import { eventWords } from "./words.js";

/** Milliseconds between other seats' plays as the page shows them (localStorage "tienlen.pace" overrides). */
const PACE_MS = Number(localStorage.getItem("tienlen.pace") ?? "700");
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {unknown} e */
const message = (e) => (e instanceof Error ? e.message : String(e));

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
  const log = h("ol", { id: "log", reversed: true });
  const hand = h("div", { id: "hand", role: "group", "aria-label": t("your_hand") });
  const seats = h("div", { id: "seats", role: "list", "aria-label": t("seats_label") });
  const table = h("div", { id: "table-play-box" });
  const clock = h("span", { id: "clock", role: "timer" });
  const turn = h("span", { id: "turn-text" });
  const share = h("p", { id: "share" });
  const resultBox = h("section", { id: "results", "aria-live": "polite" });
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
      h("section", { id: "table", "aria-label": t("table_label") }, [table, h("p", { id: "turn" }, [turn, clock])]),
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
    table.replaceChildren(tablePlay(view, name));
    turn.textContent = view.status !== "playing" || view.turn === null ? "" :
      revealing ? t("showing") : view.turn === view.seat ? t("your_turn") : t("turn_of", { name: name(view.turn) });
    selected = new Set([...selected].filter((c) => view.cards.includes(c)));
    hand.replaceChildren(...sorted(view.cards).map((card) => h("button", {
      type: "button", class: isRed(card) ? "card red" : "card", "data-card": card, "aria-label": label(card),
      "aria-pressed": selected.has(card) ? "true" : "false",
      onclick: () => { if (selected.has(card)) selected.delete(card); else selected.add(card); render(); },
      onkeydown: (/** @type {KeyboardEvent} */ e) => moveFocus(e),
    }, [face(card)])));
    const verdict = judge([...selected], myTurn() ? legal : null, view);
    selection.textContent = verdict.text;
    const mine = myTurn() && !busy;
    playButton.disabled = !(mine && verdict.ok);
    passButton.disabled = !(mine && legal?.can_pass);
    hintButton.disabled = !mine;
    leaveButton.disabled = busy;
    resultBox.replaceChildren(...results(view, name));
    if (view.status === "finished") {
      resultBox.append(h("p", { id: "winner" }, [view.winner === null ? t("no_winner") : t("winner", { name: name(view.winner) })]),
        h("button", { id: "rematch", type: "button", onclick: () => void doRematch(), disabled: busy }, [t("rematch")]));
    }
    tick();
    const again = focusedCard ? hand.querySelector(`[data-card="${focusedCard}"]`) : null;
    if (again instanceof HTMLElement) again.focus();
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
    clock.textContent = view.turn_deadline && view.status === "playing" && !revealing
      ? ` ⏱ ${t("clock_left", { s: Math.max(0, Math.ceil((Date.parse(view.turn_deadline) - Date.now()) / 1000)) })}` : "";
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
      if (advice.action.type === "play") {
        selected = new Set(advice.action.cards);
        hintLine.textContent = t("hint_play", { what: describe(advice.action.cards), why: advice.explanation });
      } else {
        selected = new Set();
        hintLine.textContent = t("hint_pass", { why: advice.explanation });
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

  // the events before the page came, in the log at once; then the live ones as they come
  for (const event of await api.eventsSoFar(matchId, 0, view.last_seq).catch(() => [])) showEvent(event);
  const stopFollowing = api.follow(matchId, view.last_seq, (event) => enqueue([event]));
  const timer = setInterval(tick, 250);
  legal = myTurn() ? await api.legal(matchId, held.token).catch(() => null) : null;
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
