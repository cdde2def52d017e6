// @ts-check
/** The public HTTP contract of API v1, and nothing else: one small client for the browser table. */

/** @typedef {import("../../types/openapi").components["schemas"]["SeatView"]} SeatView */
/** @typedef {import("../../types/openapi").components["schemas"]["Match"]} Match */
/** @typedef {import("../../types/openapi").components["schemas"]["Legal"]} Legal */
/** @typedef {import("../../types/openapi").components["schemas"]["Hint"]} Hint */
/** @typedef {import("../../types/openapi").components["schemas"]["CreatedMatch"]} CreatedMatch */
/** @typedef {import("../../types/openapi").components["schemas"]["CreateMatch"]} CreateMatch */
/** @typedef {import("../../types/openapi").components["schemas"]["ActionAnswer"]} ActionAnswer */
/** @typedef {import("../../types/openapi").components["schemas"]["Action"]} Action */
/** @typedef {import("../../types/openapi").components["schemas"]["LeaveAnswer"]} LeaveAnswer */
/** @typedef {import("../../types/openapi").components["schemas"]["SeatToken"]} Token */
/** @typedef {import("../../types/openapi").components["schemas"]["Lobby"]} Lobby */
/** @typedef {import("../../types/openapi").components["schemas"]["Rematch"]} Rematch */
/** @typedef {import("../../types/openapi").components["schemas"]["RuleCatalog"]} Presets */
/** @typedef {import("../../types/openapi").components["schemas"]["RuleParameter"]} RuleParameter */
/** @typedef {import("../../types/openapi").components["schemas"]["BotLevel"]} BotLevel */
/** @typedef {import("../../types/openapi").components["schemas"]["Event"]} MatchEvent */
/** @typedef {import("../../types/openapi").components["schemas"]["EventPage"]} EventPage */
/** @typedef {import("../../types/openapi").components["schemas"]["Registered"]} Registered */
/** @typedef {import("../../types/openapi").components["schemas"]["Session"]} Session */
/** @typedef {import("../../types/openapi").components["schemas"]["Account"]} Account */
/** @typedef {import("../../types/openapi").components["schemas"]["Room"]} Room */
/** @typedef {import("../../types/openapi").components["schemas"]["RoomSeat"]} RoomSeat */
/** @typedef {import("../../types/openapi").components["schemas"]["Replay"]} Replay */
/** @typedef {import("../../types/openapi").components["schemas"]["Rules"]} Rules */
/** @typedef {import("../../types/openapi").components["schemas"]["Player"]} Player */
/** @typedef {import("../../types/openapi").components["schemas"]["KeptPage"]} KeptPage */
/** @typedef {import("../../types/openapi").components["schemas"]["KeptMatch"]} KeptMatch */
/** @typedef {import("../../types/openapi").components["schemas"]["KeptSeat"]} KeptSeat */
/** @typedef {import("../../types/openapi").components["schemas"]["Leaderboard"]} Leaderboard */
/** @typedef {import("../../types/openapi").components["schemas"]["QueueTicket"]} Ticket */

/** The seat an event is about, if it names one. @param {MatchEvent} event @returns {number | undefined} */
export const seatOf = (event) => ("seat" in event ? event.seat : undefined);

/** A refusal of the server: its status, `reason` and `message`. */
export class ApiError extends Error {
  /** @param {number} status @param {string} reason @param {string} message @param {Record<string, unknown>} [errors] */
  constructor(status, reason, message, errors) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.errors = errors;
  }
}

/** @typedef {import("../../types/openapi").paths} Paths */
/** @typedef {"get" | "post" | "put" | "delete"} Method */
/**
 * The methods the contract has for `P` (a method it lacks is `never`, so it cannot be called).
 * @template {keyof Paths} P
 * @typedef {{[M in Method]: Paths[P][M] extends undefined ? never : M}[Method]} MethodOf
 */
/**
 * The JSON content of one answer: `null` for one without content; `unknown` (so nothing typed fits it) otherwise.
 * @template R
 * @typedef {R extends {content: {"application/json": infer J}} ? J : R extends {content?: never} ? null : unknown} JsonOf
 */
/**
 * What an operation answers when it succeeds: the JSON content of its 2xx answers.
 * @template O
 * @typedef {O extends {responses: infer R}
 *   ? ([Extract<keyof R, 200 | 201 | 202 | 204>] extends [never] ? unknown : JsonOf<R[Extract<keyof R, 200 | 201 | 202 | 204>]>)
 *   : unknown} Answer
 */
/**
 * What a request of an operation carries: its path and query parameters, its JSON body, a seat token, and whether
 * it outlives the page (`keepalive`: sent as the page goes away).
 * @template O
 * Distributed once over `O` (three parts distributed alone multiply their unions: TS2590).
 * @typedef {O extends unknown
 *   ? (O extends {parameters: {path: infer A}} ? {path: A} : {path?: never})
 *     & (O extends {parameters: {query?: infer Q}} ? {query?: Q} : {query?: never})
 *     & (O extends {requestBody: {content: {"application/json": infer B}}} ? {body: B}
 *       : O extends {requestBody?: {content: {"application/json": infer B}}} ? {body?: B} : {body?: never})
 *     & {token?: string, keepalive?: boolean}
 *   : never} Request
 */

/**
 * One request of the contract, typed by it: `path` is one of its paths (with `{match_id}` filled from
 * `request.path`), `method` one of that path's methods, the body the operation's JSON body, and the answer the JSON
 * of its 2xx answer; a refusal throws ApiError.
 * @template {keyof Paths} P
 * @template {MethodOf<P>} M
 * @param {M} method @param {P} path @param {Request<Paths[P][M]>} request
 * @returns {Promise<Answer<Paths[P][M]>>}
 */
export async function call(method, path, request) {
  /** @type {{path?: Record<string, string | number>, query?: Record<string, string | number>, body?: unknown, token?: string, keepalive?: boolean}} */
  const options = request;
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))}` : "";
  const url = path.replace(/\{(\w+)\}/g, (_, key) => encodeURIComponent(String(options.path?.[key] ?? ""))) + query;
  /** @type {Record<string, string>} */
  const headers = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method: method.toUpperCase(), headers, body: options.body === undefined ? undefined : JSON.stringify(options.body),
    keepalive: options.keepalive ?? false,
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new ApiError(response.status, data?.reason ?? "error", data?.message ?? response.statusText, data?.errors);
  }
  return data;
}

const M = "/v1/matches/{match_id}";
/** A seat's part of a fair deal (docs/fair-deals.md): 32 random hex digits, drawn afresh for each seat taken. */
const entropy = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
/** The create body with each of the creator's own seats adding its entropy (not with a fixed seed or deal). @param {CreateMatch} body */
const withEntropy = (body) => body.seed !== undefined || body.deal !== undefined ? body
  : { ...body, seats: body.seats.map((seat) => "bot" in seat || "open" in seat || "entropy" in seat ? seat : { ...seat, entropy: entropy() }) };
/** A join's body: the name when given, and the seat's entropy. @param {string | undefined} name */
const joinBody = (name) => name === undefined ? { entropy: entropy() } : { name, entropy: entropy() };
/** @param {string} id */
const at = (id) => ({ match_id: id });

/** @returns {Promise<Presets>} */
export const rules = () => call("get", "/v1/rules", {});
/** The match to watch now, or null (GET /v1/live). */
export const live = () => call("get", "/v1/live", {});
/** A match made; with an account's token, the account hosts it. @param {CreateMatch} body @param {string} [token] @returns {Promise<CreatedMatch>} */
export const createMatch = (body, token) => call("post", "/v1/matches", { body: withEntropy(body), token });
/** @returns {Promise<Lobby>} */
export const lobby = () => call("get", "/v1/matches", {});
/** @param {string} id @returns {Promise<Match>} */
export const getMatch = (id) => call("get", M, { path: at(id) });
/** Join a match: with an account's token, as the account (no name needed). @param {string} id @param {string | undefined} name @param {string} [token] @returns {Promise<Token>} */
export const join = (id, name, token) => call("post", `${M}/join`, { path: at(id), body: joinBody(name), token });
/** @param {string} code @returns {Promise<Room>} */
export const room = (code) => call("get", "/v1/rooms/{code}", { path: { code } });
/** Join by room code, like `join`. @param {string} code @param {string | undefined} name @param {string} [token] @returns {Promise<RoomSeat>} */
export const joinRoom = (code, name, token) =>
  call("post", "/v1/rooms/{code}/join", { path: { code }, body: joinBody(name), token });
/** @param {string} id @returns {Promise<Replay>} */
export const replay = (id) => call("get", `${M}/replay`, { path: at(id) });

/** @param {string} name @returns {Promise<Player>} */
export const player = (name) => call("get", "/v1/players/{name}", { path: { name } });
/** @typedef {Paths["/v1/challenges"]["post"]} ChallengeOperation */
/**
 * Challenge players or house bots (the account at seat 0): house bots alone start at once, the account's seat token in `tokens`.
 * @param {Request<ChallengeOperation>["body"]} body @param {string} token @returns {Promise<Answer<ChallengeOperation>>}
 */
export const challenge = (body, token) => call("post", "/v1/challenges", { body, token });
/** A page of the leaderboard. @param {number} players @param {"human" | "bot"} kind @param {string | null} cursor @returns {Promise<Leaderboard>} */
export const leaderboard = (players, kind, cursor) =>
  call("get", "/v1/leaderboard", { query: cursor ? { players, kind, cursor } : { players, kind } });
/** A page of the player's kept matches, newest first. @param {string} name @param {string | null} cursor @returns {Promise<KeptPage>} */
export const playerMatches = (name, cursor) =>
  call("get", "/v1/players/{name}/matches", { path: { name }, query: cursor ? { cursor } : {} });

/** Quick play: queue the account for a table (202 Ticket; 409 already_queued). @param {import("../../types/openapi").components["schemas"]["Queue"]} body @param {string} token @returns {Promise<Ticket>} */
export const enqueue = (body, token) => call("post", "/v1/queue", { body: { entropy: entropy(), ...body }, token });
/** The account's open ticket, wherever it was made (404 ticket_not_found without one). @param {string} token @returns {Promise<Ticket>} */
export const myTicket = (token) => call("get", "/v1/queue", { token });
/** The account's ticket; with `wait` (s), answered as soon as it is matched. @param {string} ticket @param {string} token @param {number} wait @returns {Promise<Ticket>} */
export const ticket = (ticket, token, wait) => call("get", "/v1/queue/{ticket}", { path: { ticket }, query: { wait }, token });
/**
 * Leave the queue (409 already_matched once the ticket found its table); `keepalive` as the page goes away.
 * @param {string} ticket @param {string} token @param {boolean} [keepalive] @returns {Promise<null>}
 */
export const leaveQueue = (ticket, token, keepalive = false) =>
  call("delete", "/v1/queue/{ticket}", { path: { ticket }, token, keepalive });

/** A new (human) account and its first session. @param {string} name @param {string} password @returns {Promise<Registered>} */
export const signUp = (name, password) => call("post", "/v1/accounts", { body: { name, password, kind: "human" } });
/** A new session of an account. @param {string} name @param {string} password @returns {Promise<Session>} */
export const signIn = (name, password) => call("post", "/v1/sessions", { body: { name, password } });
/** Revoke the session of `token`. @param {string} token @returns {Promise<null>} */
export const signOut = (token) => call("delete", "/v1/sessions/current", { token });
/** The account of `token`. @param {string} token @returns {Promise<Account>} */
export const me = (token) => call("get", "/v1/me", { token });
/** @param {string} id @param {string} token @returns {Promise<SeatView>} */
export const view = (id, token) => call("get", `${M}/view`, { path: at(id), token });
/** @param {string} id @param {string} token @returns {Promise<Legal>} */
export const legal = (id, token) => call("get", `${M}/legal`, { path: at(id), token });
/** @param {string} id @param {string} token @returns {Promise<Hint>} */
export const hint = (id, token) => call("get", `${M}/hint`, { path: at(id), token });
/** @param {string} id @param {string} token @param {Action} action @returns {Promise<ActionAnswer>} */
export const act = (id, token, action) => call("post", `${M}/actions`, { path: at(id), token, body: action });
/** @param {string} id @param {string} token @returns {Promise<LeaveAnswer>} */
export const leave = (id, token) => call("post", `${M}/leave`, { path: at(id), token });
/** @param {string} id @param {string} token @returns {Promise<Rematch>} */
export const rematch = (id, token) => call("post", `${M}/rematch`, { path: at(id), token });

/**
 * The match's events after `after` up to `until`, oldest first (GET .../events, page after page).
 * @param {string} id @param {number} after @param {number} until
 * @returns {Promise<MatchEvent[]>}
 */
export async function eventsSoFar(id, after, until) {
  /** @type {MatchEvent[]} */
  const found = [];
  let last = after;
  while (last < until) {
    const { events } = await call("get", `${M}/events`, { path: at(id), query: { after: last } });
    if (events.length === 0) break;
    found.push(...events.filter((e) => e.seq <= until));
    last = events[events.length - 1].seq;
  }
  return found;
}

const EVENT_TYPES = [
  "seat_joined", "hand_started", "played", "passed", "table_cleared", "went_out", "hand_ended", "match_ended",
  "timed_out", "seat_taken_over", "seat_left", "match_abandoned", "match_cancelled", "rematch",
];

/** Events after which nothing but a `rematch` or `seat_left` can come. */
const ENDINGS = ["match_ended", "match_abandoned", "match_cancelled"];

/**
 * Follow a match's events: the SSE stream, or long polls when the stream cannot be had.
 *
 * A finished match is followed no further than what it has: the stream of a finished match sends what is left
 * (a `rematch` or `seat_left` after `match_ended`) and ends, and with nothing left it answers 204, which closes the
 * EventSource. When the stream closes, or never opens, the match is read once: finished (or gone) and nothing left
 * ends the following; a match still in play is followed by long polls, which stop after the match's end.
 * @param {string} id @param {number} after @param {(event: MatchEvent) => void} onEvent
 * @returns {() => void} stops following
 */
export function follow(id, after, onEvent) {
  let stopped = false;
  let over = false; // an ending event came: what follows it is the rest of the match
  let last = after;
  const deliver = (/** @type {MatchEvent} */ event) => {
    if (stopped || event.seq <= last) return;
    last = event.seq;
    if (ENDINGS.includes(event.type)) over = true;
    onEvent(event);
    if (event.type === "match_cancelled") stop(); // a cancelled match is gone: nothing more comes
  };
  /** @type {EventSource | null} */
  let source = null;
  let opened = false;
  const longPoll = async () => {
    while (!stopped && !over) {
      try {
        const page = await call("get", `${M}/events`, { path: at(id), query: { after: last, wait: 25 } });
        for (const event of page.events) deliver(event);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) break; // the match is gone
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
    stop();
  };
  /** The stream closed or never opened: stop if the match is over (after what it has left), else long polls. */
  const fallBack = async () => {
    if (stopped) return;
    /** @type {Match | null} */
    let match = null;
    try {
      match = await getMatch(id);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) { stop(); return; } // gone (cancelled or expired)
    }
    if (stopped) return;
    if (match?.status === "finished") {
      if (match.last_seq > last) {
        try {
          const page = await call("get", `${M}/events`, { path: at(id), query: { after: last } });
          for (const event of page.events) deliver(event);
        } catch {
          // what was left stays unseen; the page's own read of the match shows its end
        }
      }
      stop();
      return;
    }
    void longPoll();
  };
  if (typeof EventSource === "function") {
    source = new EventSource(`/v1/matches/${encodeURIComponent(id)}/stream?after=${after}`);
    source.onopen = () => { opened = true; };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message) => deliver(JSON.parse(/** @type {MessageEvent} */ (message).data)));
    }
    // A stream that ends (after the match's end, or a server going away) reconnects by itself after what it
    // delivered; the browser gives up (CLOSED) on a 204 (nothing left), a refusal, or when it never opened.
    source.onerror = () => {
      if (stopped || !source) return;
      if (!opened || source.readyState === EventSource.CLOSED) {
        source.close();
        source = null;
        void fallBack();
      }
    };
  } else {
    void fallBack();
  }
  function stop() {
    stopped = true;
    source?.close();
    source = null;
  }
  return stop;
}
