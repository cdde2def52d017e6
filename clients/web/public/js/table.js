// @ts-check
/** The table of one match: your hand, the seats, the table play, the clock, events in words, results. */

import * as api from "./api.js";
import { describe, face, isRed, judge, label, order } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { forgetSeat, heldSeat, keepSeat } from "./store.js";

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
    root.replaceChildren(h("p", { role: "alert" }, [e instanceof Error ? e.message : String(e)]));
    return () => {};
  }
  /** @type {api.Legal | null} */
  let legal = null;
  /** @type {Set<string>} */
  let selected = new Set();
  const selection = h("p", { id: "selection", "aria-live": "polite" });
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const hintLine = h("p", { id: "hint-text", "aria-live": "polite" });
  const log = h("ol", { id: "log", "aria-live": "polite" });
  const hand = h("div", { id: "hand", role: "group", "aria-label": "hand" });
  const seats = h("ul", { id: "seats" });
  const table = h("div", { id: "table" });
  const turn = h("p", { id: "turn" });
  const results = h("div", { id: "results" });
  const playButton = /** @type {HTMLButtonElement} */ (h("button", { id: "play", type: "button", onclick: () => send("play") }, [t("play")]));
  const passButton = /** @type {HTMLButtonElement} */ (h("button", { id: "pass", type: "button", onclick: () => send("pass") }, [t("pass")]));
  const hintButton = /** @type {HTMLButtonElement} */ (h("button", { id: "hint", type: "button", onclick: askHint }, [t("hint")]));
  const leaveButton = h("button", { id: "leave", type: "button", onclick: doLeave }, [t("leave")]);
  const link = `${location.origin}/m/${matchId}`;
  root.replaceChildren(
    h("p", { id: "share" }),
    h("section", { "aria-label": "seats" }, [seats, turn]),
    table,
    h("section", { "aria-label": "your hand" }, [hand, selection,
      h("div", { class: "actions" }, [playButton, passButton, hintButton, leaveButton]), hintLine, error]),
    results,
    h("section", {}, [h("h2", {}, [t("log")]), log]),
  );
  const name = (/** @type {number | undefined} */ seat) =>
    seat === undefined ? "?" : seat === view.seat ? t("you") : view.seats[seat]?.name ?? `#${seat}`;

  function render() {
    const share = /** @type {HTMLElement} */ (root.querySelector("#share"));
    share.replaceChildren(...(view.status === "waiting" ? [t("waiting"), " ", h("a", { href: link, id: "join-link" }, [link])] : []));
    seats.replaceChildren(...view.seats.map((s) => h("li", {
      class: s.seat === view.turn ? "seat on-turn" : "seat", "data-seat": s.seat,
    }, [
      h("strong", {}, [s.seat === view.seat ? `${s.name} (${t("you")})` : s.name ?? "—"]),
      s.bot ? ` · ${t(`bot_${s.bot}`)}` : "", ` · ${t("cards_left", { n: s.cards_left })}`,
      s.passed ? ` · ${t("passed_mark")}` : "", s.place ? ` · ${t("place", { n: s.place })}` : "",
      ` · ${t("score", { n: s.score })}`,
    ])));
    table.replaceChildren(view.table
      ? h("p", {}, [t("table_by", { name: name(view.table.seat) }), " ", ...view.table.cards.map((c) => h("span", { class: isRed(c) ? "face red" : "face", "aria-label": label(c) }, [face(c)]))])
      : h("p", {}, [view.status === "playing" ? t("table_empty") : ""]));
    turn.textContent = view.status !== "playing" || view.turn === null ? "" :
      view.turn === view.seat ? t("your_turn") : t("turn_of", { name: name(view.turn) });
    turn.append(h("span", { id: "clock" }));
    selected = new Set([...selected].filter((c) => view.cards.includes(c)));
    hand.replaceChildren(...[...view.cards].sort((a, b) => order(a) - order(b)).map((card) => h("button", {
      type: "button", class: isRed(card) ? "card red" : "card", "data-card": card, "aria-label": label(card),
      "aria-pressed": selected.has(card) ? "true" : "false",
      onclick: () => { if (selected.has(card)) selected.delete(card); else selected.add(card); render(); },
      onkeydown: (/** @type {KeyboardEvent} */ e) => moveFocus(e),
    }, [face(card)])));
    const verdict = judge([...selected], legal, view);
    selection.textContent = verdict.text;
    const mine = view.status === "playing" && view.turn === view.seat;
    playButton.disabled = !(mine && verdict.ok);
    passButton.disabled = !(mine && legal?.can_pass);
    hintButton.disabled = !mine;
    results.replaceChildren(...view.hands.map((done) => h("p", {}, [t("hand_result", {
      n: done.hand_number, places: done.places.map((s, i) => `${i + 1}. ${name(s)} (${done.points[s]})`).join(", "),
    })])));
    if (view.status === "finished") {
      if (view.winner !== null) results.append(h("p", { id: "winner" }, [t("winner", { name: name(view.winner) })]));
      results.append(h("button", { id: "rematch", type: "button", onclick: doRematch }, [t("rematch")]));
    }
  }

  /** @param {KeyboardEvent} event */
  function moveFocus(event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const buttons = [...hand.querySelectorAll("button")];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (event.target));
    buttons[(at + (event.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length]?.focus();
  }

  function tick() {
    const clock = root.querySelector("#clock");
    if (!clock) return;
    clock.textContent = view.turn_deadline && view.status === "playing"
      ? ` ⏱ ${t("clock_left", { s: Math.max(0, Math.ceil((Date.parse(view.turn_deadline) - Date.now()) / 1000)) })}` : "";
  }

  async function refresh() {
    view = await api.view(matchId, held.token);
    legal = view.status === "playing" && view.turn === view.seat ? await api.legal(matchId, held.token) : null;
    render();
  }

  /** @param {"play" | "pass"} type */
  async function send(type) {
    error.textContent = "";
    try {
      const answer = await api.act(matchId, held.token, type === "play"
        ? { type, cards: [...selected], version: view.version } : { type, version: view.version });
      selected = new Set();
      hintLine.textContent = "";
      for (const event of answer.events) show(/** @type {api.MatchEvent} */ (event));
      await refresh();
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  }

  async function askHint() {
    const advice = await api.hint(matchId, held.token);
    if (advice.action.type === "play") {
      selected = new Set(advice.action.cards);
      hintLine.textContent = t("hint_play", { what: describe(advice.action.cards, ""), why: advice.explanation });
    } else {
      selected = new Set();
      hintLine.textContent = t("hint_pass", { why: advice.explanation });
    }
    render();
  }

  async function doLeave() {
    try { await api.leave(matchId, held.token); } catch { /* gone already */ }
    forgetSeat(matchId);
    go("/");
  }

  async function doRematch() {
    const next = await api.rematch(matchId, held.token);
    keepSeat(next.match_id, { seat: next.seat, token: next.token, name: held.name });
    go(`/m/${next.match_id}`);
  }

  let shown = 0;
  /** @param {api.MatchEvent} event */
  function show(event) {
    if (event.seq <= shown) return;
    shown = event.seq;
    const who = name(event.seat);
    const words = {
      played: () => t("ev_played", { name: who, what: describe(event.cards ?? [], event.kind ?? "") }),
      passed: () => t("ev_passed", { name: who }),
      table_cleared: () => t("ev_cleared", { name: name(event.leader) }),
      went_out: () => t("ev_out", { name: who, n: event.place ?? "" }),
      hand_started: () => t("ev_started", { n: event.hand_number ?? "" }),
      timed_out: () => t("ev_timed_out", { name: who }),
      seat_left: () => t("ev_left", { name: who }),
      seat_taken_over: () => t("ev_taken", { name: who }),
      seat_joined: () => t("ev_joined", { name: event.name ?? who }),
      match_ended: () => t("ev_ended"),
    }[event.type];
    if (words) log.prepend(h("li", { "data-type": event.type }, [words()]));
  }

  let pending = 0;
  const stop = api.follow(matchId, view.last_seq, (event) => {
    show(event);
    clearTimeout(pending);
    pending = window.setTimeout(() => void refresh(), 60);
  });
  shown = view.last_seq;
  const timer = setInterval(tick, 250);
  legal = view.status === "playing" && view.turn === view.seat ? await api.legal(matchId, held.token) : null;
  render();
  tick();
  return () => { stop(); clearInterval(timer); };
}

/** Someone with the link and no seat: join an open seat. */
/** @param {HTMLElement} root @param {string} matchId @param {(path: string) => void} go */
async function showJoin(root, matchId, go) {
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "join-name", value: localStorage.getItem("tienlen.name") ?? "Bo", maxlength: 40 }));
  const error = h("p", { role: "alert", class: "error" });
  const join = async () => {
    try {
      const token = await api.join(matchId, input.value);
      localStorage.setItem("tienlen.name", input.value);
      keepSeat(matchId, { seat: token.seat, token: token.token, name: input.value });
      go(`/m/${matchId}`);
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  };
  root.replaceChildren(h("label", {}, [t("your_name"), " ", input]),
    h("button", { id: "join", type: "button", onclick: join }, [t("join")]), error);
  return () => {};
}
