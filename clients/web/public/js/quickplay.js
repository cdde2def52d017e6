// @ts-check
/**
 * "Play now" (signed in): quick play at a rated table of 4 (POST /v1/queue). While the ticket waits the section says
 * "Finding a table…" and offers Cancel (DELETE /v1/queue/{ticket}); it long-polls the ticket (GET ...?wait=25) until
 * it is matched, then opens its match's table, where the account's token acts for the seat (no seat token is given).
 *
 * The search lives as long as the lobby: the lobby drawn again (another language) goes on waiting for the same
 * ticket, and leaving it (another view, a reload, the tab closed) cancels it, so nobody is seated at a table they
 * no longer see. A ticket held elsewhere (409 already_queued: another tab or browser) is said plainly, with a way to
 * wait for it here or to cancel it.
 */

import { refusal } from "./account.js";
import * as api from "./api.js";
import { h, setText } from "./dom.js";
import { t } from "./i18n.js";
import { beforeSignOut, forgetIfRevoked, onSessionChange, signedIn } from "./session.js";
import { keepSeat } from "./store.js";

/** The table quick play asks for. */
const QUICK = { players: 4, rated: true };
/** Seconds each long poll of the ticket waits for its match. */
const WAIT_S = 25;
/** Milliseconds before asking again after a failed poll (the server busy or unreachable). */
const RETRY_MS = 2000;

/** @typedef {import("./session.js").Signed} Signed */

/** The ticket this page waits for, and its account's name: kept while the page lasts (the lobby drawn again). */
/** @type {{ticket: string, name: string} | null} */
let kept = null;

/** The ticket this page waits for, for the account `name`. @param {string} name @returns {string | null} */
const keptTicket = (name) => (kept && kept.name.toLowerCase() === name.toLowerCase() ? kept.ticket : null);
/** @param {string} ticket @param {string} name */
const keepTicket = (ticket, name) => { kept = { ticket, name }; };
const forgetTicket = () => { kept = null; };

/** The account's open ticket made elsewhere (another tab or device), or null. @param {string} token */
const heldTicket = async (token) => {
  try {
    return (await api.myTicket(token)).ticket;
  } catch {
    return null;
  }
};

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keep the seat of a matched ticket (the account's token acts for it) and open its table. @param {api.Ticket} found @param {Signed} session @param {(path: string) => void} go */
function openMatch(found, session, go) {
  forgetTicket();
  if (found.match_id === null || found.seat === null) return;
  keepSeat(found.match_id, { seat: found.seat, token: session.token, name: session.name });
  go(`/m/${encodeURIComponent(found.match_id)}`);
}

/**
 * Leave the queue with a ticket. A ticket matched meanwhile (409 already_matched) is not lost: it is answered (once
 * its match is stored), to be opened; a ticket gone already (404) is left all the same.
 * @param {string} ticket @param {Signed} session @returns {Promise<api.Ticket | null>} the matched ticket, or null (left)
 */
async function leaveQueue(ticket, session) {
  try {
    await api.leaveQueue(ticket, session.token);
  } catch (e) {
    if (e instanceof api.ApiError && e.reason === "already_matched") return api.ticket(ticket, session.token, WAIT_S);
    if (!(e instanceof api.ApiError && e.reason === "ticket_not_found")) throw e;
  }
  return null;
}

/**
 * The lobby's quick-play section: hidden when signed out.
 * @param {(path: string) => void} go
 * @returns {{element: HTMLElement, stop: () => void}} `stop` ends the waiting (leaving the lobby: cancels the ticket)
 */
export function playNowSection(go) {
  const play = /** @type {HTMLButtonElement} */ (h("button", { id: "play-now", type: "button", class: "primary",
    "aria-describedby": "play-now-about" }, [t("play_now")]));
  const cancel = /** @type {HTMLButtonElement} */ (h("button", { id: "queue-cancel", type: "button" }, [t("cancel_search")]));
  const waitHeld = /** @type {HTMLButtonElement} */ (h("button", { id: "queue-wait-held", type: "button" }, [t("queue_wait_here")]));
  const cancelHeld = /** @type {HTMLButtonElement} */ (h("button", { id: "queue-cancel-held", type: "button" }, [t("queue_cancel_held")]));
  const spinner = h("span", { class: "spinner", "aria-hidden": "true", hidden: true });
  const said = h("span", { id: "queue-said" }); // "Finding a table…", "The search was cancelled."
  const status = h("p", { id: "queue-status", role: "status", class: "queue-row" }, [spinner, said]);
  const error = h("p", { id: "queue-error", role: "alert", class: "error" });
  const waiting = h("div", { id: "queue-waiting", class: "queue-row", hidden: true }, [cancel]);
  const held = h("div", { id: "queue-held", class: "queue-row", hidden: true }, [waitHeld, cancelHeld]);
  const element = h("section", { id: "play-now-panel", "aria-labelledby": "play-now-h", class: "panel quick-play" }, [
    h("h2", { id: "play-now-h" }, [t("play_rated")]),
    h("p", { id: "play-now-about", class: "about" }, [t("play_now_about")]),
    h("div", { class: "queue-row" }, [play]), status, error, waiting, held,
  ]);
  const here = location.pathname;
  let run = 0; // each wait and each stop counts one: a poll of an older run ends without touching the page
  // a request under way (joining the queue, leaving it): the buttons refuse clicks, marked aria-disabled rather than
  // disabled so that the focus stays on them
  let busy = false;
  /** @type {string | null} */
  let ticket = null; // the ticket waited for, or the one held elsewhere (state "held")

  /** @param {boolean} now */
  function setBusy(now) {
    busy = now;
    for (const button of [play, cancel, waitHeld, cancelHeld]) button.setAttribute("aria-disabled", String(now));
  }

  /**
   * Show one state; the focus follows to its first button when it was in this section (never taken from elsewhere).
   * @param {"idle" | "joining" | "waiting" | "held"} state @param {string} [saying] what the status line says
   */
  function show(state, saying = "") {
    const focused = element.contains(document.activeElement);
    setBusy(state === "joining");
    play.hidden = state === "waiting" || state === "held";
    waiting.hidden = state !== "waiting";
    held.hidden = state !== "held";
    spinner.hidden = state !== "waiting";
    setText(said, state === "waiting" ? t("finding_table") : saying);
    if (state !== "joining") error.textContent = state === "held" ? t("queue_held") : "";
    const next = { idle: play, joining: play, waiting: cancel, held: waitHeld }[state];
    if (focused && next !== document.activeElement) next.focus();
  }

  /**
   * A refusal or failure in the error line, the section idle; an ended session is said (the section stays to say
   * it, without Play now). @param {unknown} e
   */
  function fail(e) {
    const ended = forgetIfRevoked(e);
    show("idle");
    error.textContent = ended ? t("session_ended") : refusal(e);
    if (ended) {
      element.hidden = false;
      play.hidden = true;
    }
  }

  /** Long-poll `id` until it is matched (then open its table), left, or gone. @param {string} id @param {Signed} session */
  async function waitFor(id, session) {
    const mine = ++run;
    ticket = id;
    keepTicket(id, session.name);
    show("waiting");
    while (mine === run) {
      /** @type {api.Ticket} */
      let found;
      try {
        found = await api.ticket(id, session.token, WAIT_S);
      } catch (e) {
        if (mine !== run) return;
        if (e instanceof api.ApiError && (e.reason === "ticket_not_found" || e.status === 401)) {
          forgetTicket();
          ticket = null;
          if (e.status === 401) fail(e);
          else show("idle", t("queue_gone"));
          return;
        }
        await sleep(RETRY_MS);
        continue;
      }
      if (mine !== run) return;
      if (found.status === "matched" && found.match_id !== null) {
        run++;
        openMatch(found, session, go);
        return;
      }
      if (found.status === "left") { // cancelled in another tab
        forgetTicket();
        ticket = null;
        show("idle", t("queue_left"));
        return;
      }
    }
  }

  async function playNow() {
    const session = signedIn();
    if (!session || busy) return;
    show("joining");
    error.textContent = "";
    try {
      const made = await api.enqueue(QUICK, session.token);
      if (made.status === "matched" && made.match_id !== null) openMatch(made, session, go);
      else void waitFor(made.ticket, session);
    } catch (e) {
      const held = e instanceof api.ApiError && e.reason === "already_queued" ? await heldTicket(session.token) : null;
      if (held) {
        ticket = held;
        show("held");
      } else {
        fail(e);
      }
    }
  }

  /** Cancel the ticket (this page's, or the one held elsewhere); one matched meanwhile opens its table. */
  async function cancelSearch() {
    const session = signedIn();
    const id = ticket;
    if (!session || id === null || busy) return;
    run++; // the poll under way ends unseen
    setBusy(true);
    try {
      const matched = await leaveQueue(id, session);
      if (matched?.status === "matched" && matched.match_id !== null) {
        openMatch(matched, session, go);
        return;
      }
      if (matched) { // its table is being made: wait for it
        void waitFor(id, session);
        return;
      }
      forgetTicket();
      ticket = null;
      show("idle", t("queue_cancelled"));
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 401) { // the session ended: nothing more can be asked
        forgetTicket();
        ticket = null;
        fail(e);
      } else if (!held.hidden) { // the search held elsewhere is still there
        show("held");
        error.textContent = refusal(e);
      } else {
        void waitFor(id, session); // still waiting: say why Cancel failed
        error.textContent = refusal(e);
      }
    }
  }

  play.addEventListener("click", () => void playNow());
  cancel.addEventListener("click", () => void cancelSearch());
  cancelHeld.addEventListener("click", () => void cancelSearch());
  waitHeld.addEventListener("click", () => {
    const session = signedIn();
    if (session && ticket && !busy) void waitFor(ticket, session);
  });

  /** Signed in: the section, going on waiting for the page's ticket; signed out: hidden, nothing waited for. */
  function draw() {
    const session = signedIn();
    element.hidden = session === null;
    run++;
    const waited = session ? keptTicket(session.name) : null;
    if (session && waited) void waitFor(waited, session);
    else show("idle");
  }
  draw();
  const unwatch = onSessionChange(draw);
  // signing out ends the search first, while the token still works
  const unhook = beforeSignOut(async (session) => {
    const waited = keptTicket(session.name);
    if (!waited) return;
    forgetTicket();
    run++;
    await api.leaveQueue(waited, session.token);
  });

  /** The page goes away (a reload, another page, the tab closed): its search ends with it. */
  const onPageHide = () => {
    const session = signedIn();
    const waited = session ? keptTicket(session.name) : null;
    forgetTicket();
    run++;
    if (session && waited) api.leaveQueue(waited, session.token, true).catch(() => {});
  };
  /** Back from the browser's page cache: its search ended as it went. @param {PageTransitionEvent} event */
  const onPageShow = (event) => { if (event.persisted) draw(); };
  addEventListener("pagehide", onPageHide);
  addEventListener("pageshow", onPageShow);

  const stop = () => {
    run++;
    unwatch();
    unhook();
    removeEventListener("pagehide", onPageHide);
    removeEventListener("pageshow", onPageShow);
    const session = signedIn();
    const waited = session ? keptTicket(session.name) : null;
    if (!session || !waited || location.pathname === here) return; // the lobby drawn again (its language) goes on waiting
    forgetTicket();
    // another view of the page: the search ends; a ticket matched meanwhile keeps its seat ("Your matches")
    leaveQueue(waited, session).then((matched) => {
      if (matched?.status === "matched" && matched.match_id !== null && matched.seat !== null) {
        keepSeat(matched.match_id, { seat: matched.seat, token: session.token, name: session.name });
      }
    }).catch(() => {});
  };
  return { element, stop };
}
