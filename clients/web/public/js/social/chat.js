// @ts-check
/**
 * The chat of a match, at the table and on the watch page: the messages of the rooms the reader may read (a seat
 * both, each marked with its room; anyone else the spectators' room), a text box (200 characters, a counter) and the
 * quick phrases (GET /v1/rules `chat_phrases`, each shown in the reader's language, also when another said it), each
 * message's menu (mute, block, report: social/menu.js) for a signed-in reader. A `<details>`: folded away on a phone.
 *
 * The chat is read with the reader's token (a seat's sees the table room: a browser's EventSource cannot send it):
 * GET …/chat once, then long polls of GET …/events with the token, keeping the chat's events (`chat_said`,
 * `chat_removed`); the game's events go on by the page's own stream.
 */

import * as api from "../api.js";
import { h, message, setText } from "../dom.js";
import { language, t } from "../i18n.js";
import { signedIn } from "../session.js";
import { messageMenu } from "./menu.js";
import "./words.js";

// the chat's own styles, loaded with it (not part of the table's first load)
if (!document.querySelector("link[href='/web/social.css']")) {
  document.head.append(h("link", { rel: "stylesheet", href: "/web/social.css" }));
}

/** The longest message. */
export const MAX_CHARS = 200;
/** Seconds each long poll of the chat waits. */
const WAIT_S = 25;

/** @typedef {import("../../../types/openapi").components["schemas"]["ChatMessage"]} ChatMessage */
/** @typedef {import("../../../types/openapi").components["schemas"]["ChatPhrase"]} ChatPhrase */
/** @typedef {"table" | "spectators"} Room */

/** @type {Promise<ChatPhrase[]> | null} */
let phrases = null;
/** The quick phrases (read once a page). @returns {Promise<ChatPhrase[]>} */
export const quickPhrases = () => (phrases ??= api.rules().then((r) => r.chat_phrases).catch(() => { phrases = null; return []; }));

/** A phrase's words in the language in use (else English). @param {ChatPhrase} phrase */
export const phraseWords = (phrase) => phrase.text[language()] ?? phrase.text.en ?? phrase.id;

/** A chat event as a message. @param {Extract<api.MatchEvent, {type: "chat_said"}>} e @returns {ChatMessage} */
const fromEvent = (e) => ({ seq: e.seq, room: e.room, text: e.text, phrase: e.phrase, at: e.said_at,
  from: { name: e.name, seat: e.from_seat, account: e.account } });

/**
 * A refusal of a message in words. @param {unknown} e
 */
export function chatError(e) {
  if (!(e instanceof api.ApiError)) return message(e);
  if (e.status === 429) return t("chat_slow");
  if (e.reason === "chat_muted") {
    const until = typeof e.errors?.until === "string" ? e.errors.until : null;
    return until ? t("chat_muted_until", { when: new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(until)) })
      : t("chat_muted");
  }
  if (e.status === 401) return t("chat_sign_in");
  if (e.reason === "match_not_playing") return t("chat_closed");
  return e.message;
}

/**
 * @typedef {object} ChatOptions
 * @property {string} matchId
 * @property {number} after the last event the page has read (the chat's events after it come by long polls)
 * @property {string | null} token the reader's token (a seat's, or the signed-in account's): null reads as anyone
 * @property {Room | null} room where the reader writes (null: it only reads)
 * @property {boolean} seated a seat reads both rooms (each message is marked with its room)
 * @property {HTMLElement} [into] the chat's `<details>` already on the page (its summary kept), else a new one
 */

/** @param {ChatOptions} options @returns {{element: HTMLElement, stop: () => void}} */
export function chatPart({ matchId, after, token, room, seated, into }) {
  /** @type {Map<number, ChatMessage>} */
  const messages = new Map();
  /** @type {Set<string>} accounts whose messages this page hides (muted or blocked here) */
  const hidden = new Set();
  /** @type {ChatPhrase[]} */
  let known = [];
  let stopped = false;
  const list = h("ol", { id: "chat-messages", class: "chat-messages", "aria-live": "polite", "aria-relevant": "additions" });
  const empty = h("p", { id: "chat-empty", class: "quiet" }, [t("chat_empty")]);
  const status = h("p", { id: "chat-status", role: "status", class: "chat-status" });
  const say = (/** @type {string} */ text) => setText(status, text);
  const me = signedIn();

  /** Show every message kept, oldest first. */
  function draw() {
    const shown = [...messages.values()].filter((m) => !(m.from.account && hidden.has(m.from.account.toLowerCase())))
      .sort((a, b) => a.seq - b.seq);
    const old = new Map([...list.children].map((li) => [/** @type {HTMLElement} */ (li).dataset.key, li]));
    list.replaceChildren(...shown.map((m) => {
      const key = `${m.seq}:${m.text === "" ? "x" : "y"}:${language()}`;
      return old.get(key) ?? line(m, key);
    }));
    empty.hidden = shown.length > 0;
  }

  /** One message's line. @param {ChatMessage} m @param {string} key */
  function line(m, key) {
    const phrase = m.phrase ? known.find((p) => p.id === m.phrase) : undefined;
    const words = m.text === "" ? h("em", { class: "removed" }, [t("chat_removed")]) : phrase ? phraseWords(phrase) : m.text;
    const mark = seated ? [h("span", { class: `room room-${m.room}` }, [t(`chat_room_${m.room}`)]), " "] : [];
    const account = m.from.account;
    const menu = me && account && account.toLowerCase() !== me.name.toLowerCase() && m.text !== ""
      ? [" ", messageMenu({ matchId, seq: m.seq, name: m.from.name, account, say, hide: (who) => { hidden.add(who.toLowerCase()); draw(); } })]
      : [];
    return h("li", { "data-seq": m.seq, "data-room": m.room, "data-key": key, class: "chat-line" },
      [...mark, h("strong", { class: "from" }, [m.from.name]), ": ", h("span", { class: "said" }, [words]), ...menu]);
  }

  /** @param {api.MatchEvent[]} events */
  function heard(events) {
    for (const e of events) {
      if (e.type === "chat_said") messages.set(e.seq, fromEvent(e));
      else if (e.type === "chat_removed") {
        const was = messages.get(e.message_seq);
        if (was) messages.set(was.seq, { ...was, text: "" });
      }
    }
    draw();
  }

  /** Messages that came while the chat was folded away: counted on its summary until it is opened. */
  let unread = 0;
  const badge = h("span", { id: "chat-unread", class: "unread", hidden: true });
  function markUnread() {
    badge.hidden = unread === 0;
    setText(badge, unread === 0 ? "" : t("chat_unread", { n: unread }));
  }

  /** @param {api.MatchEvent[]} events the events of a long poll: new messages count as unread while folded */
  function heardFollowing(events) {
    const mine = me?.name.toLowerCase();
    const fresh = events.filter((e) => e.type === "chat_said" && !messages.has(e.seq)
      && !(mine && e.account?.toLowerCase() === mine)).length;
    heard(events);
    if (fresh && !(/** @type {HTMLDetailsElement} */ (element)).open) {
      unread += fresh;
      markUnread();
    }
  }

  async function follow() {
    let last = after;
    while (!stopped) {
      const began = Date.now();
      try {
        const page = await api.call("get", "/v1/matches/{match_id}/events",
          { path: { match_id: matchId }, query: { after: last, wait: WAIT_S }, token: token ?? undefined });
        if (stopped) return;
        heardFollowing(page.events);
        if (page.events.length) last = page.events[page.events.length - 1].seq;
        else if (Date.now() - began < 1000) await new Promise((resolve) => setTimeout(resolve, 5000)); // a match over
      } catch (e) {
        if (e instanceof api.ApiError && e.status === 404) return;
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
  }

  const parts = [status, list, empty];
  if (room) parts.push(writer(matchId, /** @type {string} */ (token), room, say, heard));
  else parts.push(h("p", { id: "chat-read-only", class: "quiet" }, [t("chat_read_only")]));
  const element = into ?? chatFold(!matchMedia("(max-width: 600px)").matches);
  element.append(...parts);
  element.querySelector("summary")?.append(" ", badge);
  element.addEventListener("toggle", () => {
    if ((/** @type {HTMLDetailsElement} */ (element)).open) { unread = 0; markUnread(); }
  });

  void quickPhrases().then(async (found) => {
    known = found;
    const read = await api.call("get", "/v1/matches/{match_id}/chat", { path: { match_id: matchId }, token: token ?? undefined });
    for (const m of read.messages) messages.set(m.seq, m);
    draw();
    element.dispatchEvent(new Event("phrases"));
    void follow();
  }).catch((e) => say(message(e)));
  draw();
  return { element, stop: () => { stopped = true; } };
}

/** The chat's `<details>` with its summary, open or folded. @param {boolean} open */
export const chatFold = (open) =>
  h("details", { id: "chat", class: "chat panel", open }, [h("summary", {}, [t("chat")])]);

/**
 * The text box, its counter, Send and the quick phrases.
 * @param {string} matchId @param {string} token @param {Room} room @param {(text: string) => void} say
 * @param {(events: api.MatchEvent[]) => void} heard
 */
function writer(matchId, token, room, say, heard) {
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "chat-text", type: "text", maxlength: MAX_CHARS,
    autocomplete: "off", "aria-describedby": "chat-count" }));
  const count = h("span", { id: "chat-count", class: "quiet" }, [t("chat_chars_left", { n: MAX_CHARS })]);
  const send = /** @type {HTMLButtonElement} */ (h("button", { id: "chat-send", type: "submit" }, [t("chat_send")]));
  input.addEventListener("input", () => setText(count, t("chat_chars_left", { n: MAX_CHARS - input.value.length })));
  /** @typedef {import("../../../types/openapi").components["schemas"]["Say"]} ChatPost */
  /** @param {{text: string} | {phrase: NonNullable<ChatPost["phrase"]>}} what */
  const post = async (what) => {
    try {
      const said = await api.call("post", "/v1/matches/{match_id}/chat", { path: { match_id: matchId }, token, body: { room, ...what } });
      say("");
      heard([{ type: "chat_said", seq: said.seq, room: said.room, name: said.from.name, from_seat: said.from.seat,
        account: said.from.account, text: said.text, phrase: said.phrase, said_at: said.at }]);
      return true;
    } catch (e) {
      say(chatError(e));
      return false;
    }
  };
  const form = h("form", { id: "chat-form", class: "chat-form", onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send.disabled = true;
    if (await post({ text })) {
      input.value = "";
      setText(count, t("chat_chars_left", { n: MAX_CHARS }));
    }
    send.disabled = false;
    input.focus();
  } }, [h("label", { for: "chat-text" }, [t("chat_text")]), " ", input, " ", send, " ", count]);
  const buttons = h("div", { id: "chat-phrases", class: "chat-phrases", role: "group", "aria-label": t("chat_phrases") });
  void quickPhrases().then((found) => buttons.replaceChildren(...found.map((p) => h("button", {
    type: "button", class: "phrase", "data-phrase": p.id, onclick: () => void post({ phrase: /** @type {NonNullable<ChatPost["phrase"]>} */ (p.id) }),
  }, [phraseWords(p)]))));
  return h("div", { class: "chat-write" }, [form, buttons]);
}
