// A plain TypeScript client on the web table's types (clients/web/scripts/types.mjs: openapi-typescript's default
// options, non-empty arrays written as such): it creates a match
// with only the fields it needs, reads a seat's view, plays and passes. Compiled with tsc --strict by
// tests/contract/test_typescript.py: a request field with a default must be optional, an answer field required.
import type { components, paths } from "./openapi";

type Schemas = components["schemas"];
type CreateBody = paths["/v1/matches"]["post"]["requestBody"]["content"]["application/json"];
type Created = paths["/v1/matches"]["post"]["responses"][201]["content"]["application/json"];
type SeatView = paths["/v1/matches/{match_id}/view"]["get"]["responses"][200]["content"]["application/json"];
type ActionBody = paths["/v1/matches/{match_id}/actions"]["post"]["requestBody"]["content"]["application/json"];
type ActionAnswer = paths["/v1/matches/{match_id}/actions"]["post"]["responses"][200]["content"]["application/json"];

async function call<T>(base: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const init: RequestInit = body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) };
  const response = await fetch(base + path, init);
  if (!response.ok) {
    const error = (await response.json()) as Schemas["Error"];
    throw new Error(`${error.code} ${error.reason}: ${error.message}`);
  }
  return (await response.json()) as T;
}

// No takeover, listed, rules, clock or seed: each has a default the server applies.
export const create: CreateBody = {
  seats: [{ type: "remote", name: "Ann" }, { type: "bot", name: "Bo", bot: "easy" }, { type: "open", open: true }],
};
export const typedSeats: CreateBody = {
  seats: [{ type: "remote", name: "Ann" }, { type: "bot", name: "Bo", bot: "hard" }, { type: "open", open: true }],
  clock: { turn_seconds: 30 },
};

/** Each seat as one word, from fields every answer has. */
export function describeSeats(view: SeatView): string[] {
  return view.seats.map((seat) => {
    const left: boolean = seat.left;
    const takenOver: boolean = seat.taken_over;
    if (seat.open) return "open";
    if (takenOver) return left ? "left" : "timed out";
    return seat.bot === null ? `remote ${seat.name ?? ""}` : `bot ${seat.bot}`;
  });
}

export async function playOnce(base: string): Promise<string> {
  const created = await call<Created>(base, "/v1/matches", null, create);
  const token: string = created.tokens[0].token;
  const view = await call<SeatView>(base, `/v1/matches/${created.match_id}/view`, token);
  const version: number = view.version;
  const play: ActionBody = { type: "play", cards: [view.cards[0]], version };
  const pass: ActionBody = { type: "pass" };
  const played = await call<ActionAnswer>(base, `/v1/matches/${created.match_id}/actions`, token, play);
  const events: string[] = played.events.map((event) => event.type);
  const passed = await call<ActionAnswer>(base, `/v1/matches/${created.match_id}/actions`, token, pass);
  const turn: number | null = passed.turn;
  return `${describeSeats(view).join(", ")}; ${events.join(" ")}; then seat ${turn ?? "none"}`;
}
