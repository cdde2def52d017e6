// @ts-check
/**
 * The account this browser is signed in as: its name and session token, kept in localStorage. Signing out revokes
 * the token (DELETE /v1/sessions/current) and forgets it; a token the server no longer knows is forgotten too.
 */

import * as api from "./api.js";

const KEY = "tienlen.account";

/** @typedef {{name: string, token: string, expires_at: string}} Signed */

/** @type {Set<() => void>} */
const watchers = new Set();

/** Call `watcher` whenever the browser signs in or out; answers what stops calling it. @param {() => void} watcher */
export function onSessionChange(watcher) {
  watchers.add(watcher);
  return () => { watchers.delete(watcher); };
}

const changed = () => { for (const watcher of watchers) watcher(); };

/** @type {Set<(session: Signed) => Promise<void>>} */
const leaving = new Set();

/**
 * Run `task` as signing out begins, while the session's token still works (a quick-play search cancelled, say);
 * answers what stops running it. @param {(session: Signed) => Promise<void>} task
 */
export function beforeSignOut(task) {
  leaving.add(task);
  return () => { leaving.delete(task); };
}

/** The account signed in, or null (none kept, or its session expired). @returns {Signed | null} */
export function signedIn() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (!kept || typeof kept.token !== "string" || typeof kept.name !== "string") return null;
    if (kept.expires_at && Date.parse(kept.expires_at) <= Date.now()) return null;
    return kept;
  } catch {
    return null;
  }
}

/** The session's token to send (signed in), else undefined. */
export const accountToken = () => signedIn()?.token;

/** Keep the session of `name`. @param {Signed} session */
export function keepSession(session) {
  localStorage.setItem(KEY, JSON.stringify(session));
  changed();
}

/** Forget the session (it is not revoked: see signOut). */
export function forgetSession() {
  const had = localStorage.getItem(KEY) !== null;
  localStorage.removeItem(KEY);
  if (had) changed();
}

/**
 * Forget the session when `problem` says the server no longer knows its token (401 invalid_token).
 * @param {unknown} problem @returns {boolean} whether it was forgotten
 */
export function forgetIfRevoked(problem) {
  if (problem instanceof api.ApiError && problem.status === 401 && problem.reason === "invalid_token") {
    forgetSession();
    return true;
  }
  return false;
}

/** Sign up (a person's account) and keep its first session. @param {string} name @param {string} password */
export async function signUp(name, password) {
  const made = await api.signUp(name, password);
  keepSession({ name: made.account.name, token: made.token, expires_at: made.expires_at });
}

/** Sign in and keep the session, under the account's own spelling of its name. @param {string} name @param {string} password */
export async function signIn(name, password) {
  const session = await api.signIn(name, password);
  const account = await api.me(session.token).catch(() => null);
  keepSession({ name: account?.name ?? name, token: session.token, expires_at: session.expires_at });
}

/**
 * Revoke the session and forget it. A token the server refuses (4xx: revoked or expired already) is forgotten all
 * the same; when the server cannot be reached the session is kept and the failure thrown.
 */
export async function signOut() {
  const session = signedIn();
  if (session) {
    await Promise.all([...leaving].map((task) => task(session).catch(() => {})));
    try {
      await api.signOut(session.token);
    } catch (e) {
      if (!(e instanceof api.ApiError) || e.status >= 500) throw e;
    }
  }
  forgetSession();
}

/** Check the kept session with the server once (GET /v1/me): a revoked one is forgotten. */
export async function checkSession() {
  const session = signedIn();
  if (!session) {
    if (localStorage.getItem(KEY) !== null) forgetSession(); // expired
    return;
  }
  try {
    const account = await api.me(session.token);
    if (account.name !== session.name) keepSession({ ...session, name: account.name });
  } catch (e) {
    forgetIfRevoked(e);
  }
}
