// Types generated from openapi/openapi.json (clients/web/scripts/types.mjs: openapi-typescript, non-empty arrays
// written as such) must say what the server takes and answers.
// Compiled with tsc --strict by tests/contract/test_typescript.py: each @ts-expect-error line must be an error.
import type { components } from "./openapi";

type Schemas = components["schemas"];
type Action = Schemas["Action"];
type SeatRequest = Schemas["SeatRequest"];
type MatchEvent = Schemas["Event"];

export const play: Action = { type: "play", cards: ["3S", "3D"] };
export const pass: Action = { type: "pass" };
export const passWithNoCards: Action = { type: "pass", cards: [] };
// @ts-expect-error a play needs its cards
export const bare: Action = { type: "play" };
// @ts-expect-error a play needs at least one card (minItems 1)
export const empty: Action = { type: "play", cards: [] };
// @ts-expect-error an action is a play or a pass
export const fold: Action = { type: "fold" };

export const remote: SeatRequest = { type: "remote", name: "Ann" };
export const bot: SeatRequest = { type: "bot", name: "Bo", bot: "hard" };
export const open: SeatRequest = { type: "open", open: true };
// @ts-expect-error the document writes a seat's type as required (an untagged seat is a deprecated leniency)
export const untagged: SeatRequest = { name: "Ann" };
export const typedBot: SeatRequest = { type: "bot", name: "Bo", bot: "easy" };
export const typedOpen: SeatRequest = { type: "open", open: true };
// @ts-expect-error a seat's type must fit its fields
export const mislabeled: SeatRequest = { type: "bot", name: "Ann" };
// @ts-expect-error a seat that is not open needs a name
export const nameless: SeatRequest = { bot: "easy" };
// @ts-expect-error bot levels are an enum
export const genius: SeatRequest = { name: "Bo", bot: "genius" };

export const create: Schemas["CreateMatch"] = { seats: [remote, bot], rules: { preset: "ladder" }, seed: 7 };

// Events are told apart by type: each case has its own fields.
export function describe(event: MatchEvent): string {
  switch (event.type) {
    case "played":
      return `${event.seat} played ${event.cards.join(" ")} (${event.kind})`;
    case "went_out":
      return `${event.seat} went out ${event.place}`;
    case "seat_taken_over":
      return `${event.seat} is played by ${event.bot}`;
    case "rematch":
      return event.next_match_id;
    default:
      return `${event.seq}: ${event.type}`;
  }
}

export const reason: Schemas["Error"]["reason"] = "does_not_beat";
// @ts-expect-error reasons are an enum
export const unknownReason: Schemas["Error"]["reason"] = "no_such_reason";
