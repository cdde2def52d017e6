// @ts-check
/**
 * The account's inbox, listened to while signed in (GET /v1/me/events, long polls; listening also keeps the account
 * online, so it can be challenged). A challenge received is shown in a notice with Accept and Decline and the time
 * left; a challenge cancelled says why; a challenge started (for the sender too) opens its table, where the account's
 * token acts for the seat. Listening starts after the inbox's last event (old events are not replayed), backs off on
 * errors and stops when the session ends.
 */

import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { forgetIfRevoked, onSessionChange, signedIn } from "./session.js";
import { keepSeat } from "./store.js";

/** Seconds each long poll of the inbox waits. */
const WAIT_S = 25;
/** Milliseconds before asking again after a failed poll. */
const RETRY_MS = 2000;

/** @typedef {{seq: number, type: string, challenge_id?: string | null, from?: string | null, players?: number | null, rated?: boolean | null, expires_at?: string | null, cause?: string | null, by?: string | null, match_id?: string | null, seat?: number | null, name?: string | null, watchable?: boolean | null, round?: number | null, table?: number | null}} InboxEvent */

/** @type {Set<(event: InboxEvent) => void>} */
const listeners = new Set();
/** Hear every event of the inbox (the profile's pending challenge). @param {(event: InboxEvent) => void} listener @returns {() => void} */
export function onInboxEvent(listener) {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Listen while signed in; notices go in `box`. @param {HTMLElement} box @param {(path: string) => void} go
 */
export function listenToInbox(box, go) {
  let run = 0;
  /** @type {Map<string, {element: HTMLElement, timer: number}>} */
  const notices = new Map();

  /** @param {string} id */
  function drop(id) {
    const shown = notices.get(id);
    if (!shown) return;
    clearInterval(shown.timer);
    shown.element.remove();
    notices.delete(id);
  }

  /** @param {string} id @param {string} text */
  function say(id, text) {
    drop(id);
    const element = h("p", { class: "challenge-notice", role: "status", "data-challenge": id }, [text]);
    box.append(element);
    notices.set(id, { element, timer: window.setTimeout(() => drop(id), 15000) });
  }

  /** @param {InboxEvent} event @param {import("./session.js").Signed} session */
  function received(event, session) {
    const id = String(event.challenge_id);
    const left = h("span", { class: "time-left" });
    const accept = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "primary challenge-accept" }, [t("accept")]));
    const decline = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "challenge-decline" }, [t("decline")]));
    const error = h("span", { class: "error" });
    const text = t(event.rated ? "challenged_you_rated" : "challenged_you", { name: String(event.from), n: Number(event.players) });
    const element = h("div", { class: "challenge-notice panel", role: "alert", "data-challenge": id }, [
      h("p", {}, [text, " ", left]), h("p", {}, [accept, " ", decline, " ", error])]);
    const tick = () => {
      const s = Math.max(0, Math.round((Date.parse(String(event.expires_at)) - Date.now()) / 1000));
      left.textContent = t("seconds_left", { n: s });
    };
    tick();
    drop(id);
    box.append(element);
    notices.set(id, { element, timer: window.setInterval(tick, 1000) });
    /** @param {"accept" | "decline"} how */
    const answer = async (how) => {
      accept.disabled = decline.disabled = true;
      try {
        const path = how === "accept" ? "/v1/challenges/{challenge_id}/accept" : "/v1/challenges/{challenge_id}/decline";
        await api.call("post", path, { path: { challenge_id: id }, token: session.token });
        if (how === "decline") drop(id);
        else error.textContent = t("challenge_accepted"); // challenge_started opens the table once everyone accepted
      } catch (e) {
        error.textContent = e instanceof api.ApiError && e.reason === "challenge_expired" ? t("challenge_expired") : String(e instanceof Error ? e.message : e);
        accept.disabled = decline.disabled = false;
      }
    };
    accept.addEventListener("click", () => void answer("accept"));
    decline.addEventListener("click", () => void answer("decline"));
  }

  /** A followed account started a match: said for 15 s, with a Watch link when it may be watched. @param {InboxEvent} event */
  async function friendStarted(event) {
    await import("./social/words.js"); // its words come with the social parts
    const id = `friend-${event.match_id}`;
    say(id, t("friend_started", { name: String(event.name) }));
    if (event.watchable && event.match_id) {
      const href = `/m/${encodeURIComponent(event.match_id)}/watch`;
      notices.get(id)?.element.append(" ", h("a", { href, class: "watch-link", onclick: (/** @type {MouseEvent} */ e) => {
        e.preventDefault();
        drop(id);
        go(href);
      } }, [t("watch")]));
    }
  }

  /**
   * A tournament seated the account: "Your table is ready", kept until followed or the table is open, with a link that
   * opens the table as the account's seat. @param {InboxEvent} event @param {import("./session.js").Signed} session
   */
  async function tableReady(event, session) {
    await import("./tournaments/words.js"); // its words come with the tournaments' pages
    const match = String(event.match_id);
    const id = `table-${match}`;
    if (location.pathname === `/m/${encodeURIComponent(match)}`) return;
    say(id, t("t_your_table", { round: Number(event.round), table: Number(event.table) }));
    const shown = notices.get(id);
    if (!shown) return;
    clearTimeout(shown.timer);
    shown.element.setAttribute("role", "alert");
    shown.element.append(" ", h("a", { href: `/m/${encodeURIComponent(match)}`, class: "table-link", onclick: (/** @type {MouseEvent} */ e) => {
      e.preventDefault();
      drop(id);
      opened(match, Number(event.seat), session);
    } }, [t("t_go_table")]));
  }

  /** @param {string} match @param {number} seat @param {import("./session.js").Signed} session */
  function opened(match, seat, session) {
    keepSeat(match, { seat, token: session.token, name: session.name });
    const path = `/m/${encodeURIComponent(match)}`;
    if (location.pathname !== path) go(path);
  }

  /** @param {InboxEvent} event @param {import("./session.js").Signed} session */
  function heard(event, session) {
    for (const listener of listeners) listener(event);
    const id = String(event.challenge_id);
    if (event.type === "challenge_received") received(event, session);
    else if (event.type === "challenge_cancelled" && notices.has(id)) say(id, t(`challenge_${event.cause ?? "expired"}`));
    else if (event.type === "friend_started") void friendStarted(event);
    else if (event.type === "tournament_table_ready" && event.match_id) void tableReady(event, session);
    else if (event.type === "challenge_started" && event.match_id) {
      drop(id);
      opened(event.match_id, Number(event.seat), session);
    }
  }

  async function listen() {
    const mine = ++run;
    for (const id of [...notices.keys()]) drop(id);
    const session = signedIn();
    if (!session) return;
    let after = -1;
    while (mine === run) {
      try {
        const got = await api.call("get", "/v1/me/events", { query: after < 0 ? { wait: 0 } : { after, wait: WAIT_S }, token: session.token });
        if (mine !== run) return;
        if (after >= 0) for (const event of /** @type {InboxEvent[]} */ (got.events)) heard(event, session);
        after = got.last_seq;
      } catch (e) {
        if (mine !== run) return;
        if (forgetIfRevoked(e) || (e instanceof api.ApiError && e.status === 401)) return;
        await sleep(RETRY_MS);
      }
    }
  }
  onSessionChange(() => void listen());
  void listen();
}
