// @ts-check
// tsc --checkJs (clients/web/check.sh) proves here that the page's API calls are typed by the contract: the line
// after each expected-error comment must really be an error (an unused expectation is an error too), and
// tests/web/test_web_types.py checks that each such line fails once its expectation is taken away.
import { call } from "../public/js/api.js";

/** @typedef {import("../types/openapi").components["schemas"]} Schemas */
const at = { match_id: "m1" };

/** The right path, method and answer type compile. @type {Promise<Schemas["LeaveAnswer"]>} */
export const leave = call("post", "/v1/matches/{match_id}/leave", { path: at, token: "t" });
/** @type {Promise<Schemas["EventPage"]>} */
export const events = call("get", "/v1/matches/{match_id}/events", { path: at, query: { after: 0, wait: 25 } });

/** @type {Promise<Schemas["Hint"]>} */
// @ts-expect-error the answer of /legal is Legal, not Hint
export const wrongAnswer = call("get", "/v1/matches/{match_id}/legal", { path: at, token: "t" });
// @ts-expect-error no such path
export const wrongPath = call("get", "/v1/match/{match_id}/legal", { path: at });
// @ts-expect-error leave is a POST
export const wrongMethod = call("get", "/v1/matches/{match_id}/leave", { path: at });
// @ts-expect-error the path needs its match_id
export const noPathParameter = call("get", "/v1/matches/{match_id}/view", { token: "t" });
// @ts-expect-error a play needs its cards
export const playWithoutCards = call("post", "/v1/matches/{match_id}/actions", { path: at, body: { type: "play" } });
// @ts-expect-error an action needs its body
export const actionWithoutBody = call("post", "/v1/matches/{match_id}/actions", { path: at, token: "t" });
