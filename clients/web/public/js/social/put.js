// @ts-check
/** The PUTs of the page: `api.call` types GET, POST and DELETE (with PUT too, its types grow past what tsc holds). */

import { ApiError } from "../api.js";

/** @typedef {import("../../../types/openapi").paths} Paths */
/** @typedef {"/v1/me/muted/{name}" | "/v1/me/blocked/{name}" | "/v1/me/following/{name}" | "/v1/me/settings"} PutPath */

/**
 * PUT `body` (if any) at `path` with `name` filled in; a refusal throws ApiError.
 * @template {PutPath} P
 * @param {P} path @param {{name?: string, body?: Paths[P]["put"] extends {requestBody: {content: {"application/json": infer B}}} ? B : never, token: string}} request
 * @returns {Promise<unknown>}
 */
export async function put(path, { name, body, token }) {
  /** @type {Record<string, string>} */
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path.replace("{name}", encodeURIComponent(name ?? "")),
    { method: "PUT", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data?.reason ?? "error", data?.message ?? response.statusText, data?.errors ?? {});
  return data;
}
