// @ts-check
/** The public HTTP contract of API v1, and nothing else: one small client for the browser table. */

/** @typedef {import("../../types/openapi").components["schemas"]["SeatView"]} SeatView */
/** @typedef {import("../../types/openapi").components["schemas"]["Match"]} Match */
/** @typedef {import("../../types/openapi").components["schemas"]["Legal"]} Legal */
/** @typedef {import("../../types/openapi").components["schemas"]["Hint"]} Hint */
/** @typedef {import("../../types/openapi").components["schemas"]["CreatedMatch"]} CreatedMatch */
/** @typedef {import("../../types/openapi").components["schemas"]["CreateMatch"]} CreateMatch */
/** @typedef {import("../../types/openapi").components["schemas"]["ActionAnswer"]} ActionAnswer */
/** @typedef {import("../../types/openapi").components["schemas"]["SeatToken"]} Token */
/** @typedef {import("../../types/openapi").components["schemas"]["Lobby"]} Lobby */
/** @typedef {import("../../types/openapi").components["schemas"]["Rematch"]} Rematch */
/** @typedef {import("../../types/openapi").components["schemas"]["RuleCatalog"]} Presets */
/** @typedef {import("../../types/openapi").components["schemas"]["Event"]} MatchEvent */
/** @typedef {import("../../types/openapi").components["schemas"]["EventPage"]} EventPage */

/** The seat an event is about, if it names one. @param {MatchEvent} event @returns {number | undefined} */
export const seatOf = (event) => ("seat" in event ? event.seat : undefined);

/** A refusal of the server: its status, `reason` and `message`. */
export class ApiError extends Error {
  /** @param {number} status @param {string} reason @param {string} message */
  constructor(status, reason, message) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

/**
 * One request; answers the JSON body, or throws ApiError.
 * @param {string} method @param {string} path @param {{token?: string, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
async function call(method, path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new ApiError(response.status, data?.reason ?? "error", data?.message ?? response.statusText);
  }
  return data;
}

const m = (/** @type {string} */ id) => `/v1/matches/${encodeURIComponent(id)}`;

/** @returns {Promise<Presets>} */
export const rules = () => call("GET", "/v1/rules");
/** @param {CreateMatch} body @returns {Promise<CreatedMatch>} */
export const createMatch = (body) => call("POST", "/v1/matches", { body });
/** @returns {Promise<Lobby>} */
export const lobby = () => call("GET", "/v1/matches");
/** @param {string} id @returns {Promise<Match>} */
export const getMatch = (id) => call("GET", m(id));
/** @param {string} id @param {string} name @returns {Promise<Token>} */
export const join = (id, name) => call("POST", `${m(id)}/join`, { body: { name } });
/** @param {string} id @param {string} token @returns {Promise<SeatView>} */
export const view = (id, token) => call("GET", `${m(id)}/view`, { token });
/** @param {string} id @param {string} token @returns {Promise<Legal>} */
export const legal = (id, token) => call("GET", `${m(id)}/legal`, { token });
/** @param {string} id @param {string} token @returns {Promise<Hint>} */
export const hint = (id, token) => call("GET", `${m(id)}/hint`, { token });
/**
 * @param {string} id @param {string} token @param {{type: "play" | "pass", cards?: string[], version?: number}} action
 * @returns {Promise<ActionAnswer>}
 */
export const act = (id, token, action) => call("POST", `${m(id)}/actions`, { token, body: action });
/** @param {string} id @param {string} token @returns {Promise<Match>} */
export const leave = (id, token) => call("POST", `${m(id)}/leave`, { token });
/** @param {string} id @param {string} token @returns {Promise<Rematch>} */
export const rematch = (id, token) => call("POST", `${m(id)}/rematch`, { token });

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
    const page = await call("GET", `${m(id)}/events?after=${last}`);
    const events = /** @type {MatchEvent[]} */ (page.events);
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

/**
 * Follow a match's events: the SSE stream, or long polls when the stream cannot be had.
 * @param {string} id @param {number} after @param {(event: MatchEvent) => void} onEvent
 * @returns {() => void} stops following
 */
export function follow(id, after, onEvent) {
  let stopped = false;
  let last = after;
  const deliver = (/** @type {MatchEvent} */ event) => {
    if (event.seq <= last) return;
    last = event.seq;
    onEvent(event);
    if (["match_ended", "match_abandoned", "match_cancelled"].includes(event.type)) stop();
  };
  /** @type {EventSource | null} */
  let source = null;
  let opened = false;
  const longPoll = async () => {
    while (!stopped) {
      try {
        const page = await call("GET", `${m(id)}/events?after=${last}&wait=25`);
        for (const event of page.events) deliver(/** @type {MatchEvent} */ (event));
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  };
  if (typeof EventSource === "function") {
    source = new EventSource(`${m(id)}/stream?after=${after}`);
    source.onopen = () => { opened = true; };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message) => deliver(JSON.parse(/** @type {MessageEvent} */ (message).data)));
    }
    source.onerror = () => {
      if (!opened && source) { source.close(); source = null; void longPoll(); }
    };
  } else {
    void longPoll();
  }
  function stop() {
    stopped = true;
    source?.close();
  }
  return stop;
}
