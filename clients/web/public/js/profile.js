// @ts-check
/**
 * A player's profile at /p/<name>: who they are (GET /v1/players/{name}) and their matches, newest first, a page at
 * a time ("More"), each opening its replay.
 */

import * as api from "./api.js";
import { h, message } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { onInboxEvent } from "./inbox.js";
import { signedIn } from "./session.js";
import { keepSeat } from "./store.js";
import { followButton, playingPart } from "./social/profile.js";
import { ratingWords } from "./words.js";

/** A date and time in the language in use. @param {string} when RFC 3339 */
export const dateText = (when) =>
  new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(when));

/** The rules of a match in short: its preset and its number of hands. @param {api.Rules} rules */
export const rulesText = (rules) => [has(`preset_${rules.preset}`) ? t(`preset_${rules.preset}`) : rules.preset,
  rules.hands === 1 ? t("one_hand") : t("n_hands", { n: rules.hands })].join(" · ");

/** @param {number} points */
const pointsText = (points) => t(points === 1 ? "one_point" : "n_points", { n: points });

/** A seat of a kept match: its name (a link to its profile for an account), its place and points. @param {api.KeptSeat} seat */
function keptSeat(seat) {
  const name = seat.name ?? "—";
  const who = seat.account && seat.name && seat.name !== "(deleted)" ? h("a", { href: `/p/${encodeURIComponent(seat.name)}` }, [name]) : name;
  const facts = [...(seat.bot ? [t(`bot_${seat.bot}`)] : []), ...(seat.place ? [t("place", { n: seat.place })] : []),
    pointsText(seat.points)];
  return h("li", { "data-seat": seat.seat }, [who, ` (${facts.join(", ")})`]);
}

/** A rated match's change: "Rating: 1500 → 1523 (+23)". @param {number} before @param {number} after */
export const ratingChange = (before, after) => t("rating_change", { change: ratingWords(before, after) });

/** The player's ratings, one line per table size. @param {api.Player} found */
function ratings(found) {
  if (found.ratings.length === 0) return h("p", { id: "ratings", class: "ratings" }, [t("no_ratings")]);
  return h("ul", { id: "ratings", class: "ratings" }, found.ratings.map((r) => h("li", { "data-players": r.players }, [
    t("rating_at", { players: r.players, rating: r.rating, games: r.games }),
    ...(r.provisional ? [" ", h("span", { class: "provisional" }, [t("provisional")])] : []),
  ])));
}

/**
 * Challenge this player or bot: a table size and Rated. A house bot's challenge opens its table at once; another
 * account's waits for an answer (Withdraw), and the inbox opens the table when it starts.
 * @param {string} who @param {(path: string) => void} go @param {HTMLElement} error
 * @returns {{element: HTMLElement, stop: () => void}}
 */
function challengeForm(who, go, error) {
  const size = /** @type {HTMLSelectElement} */ (h("select", { id: "challenge-players" },
    [2, 3, 4].map((n) => h("option", { value: String(n) }, [t("n_players", { n })]))));
  const rated = /** @type {HTMLInputElement} */ (h("input", { id: "challenge-rated", type: "checkbox", checked: true }));
  const send = /** @type {HTMLButtonElement} */ (h("button", { id: "challenge", type: "button" }, [t("challenge")]));
  const withdraw = /** @type {HTMLButtonElement} */ (h("button", { id: "challenge-withdraw", type: "button", hidden: true }, [t("withdraw")]));
  /** @type {string | null} */
  let pending = null;
  /** @param {string} text */
  const settle = (text) => {
    pending = null;
    error.textContent = text;
    withdraw.hidden = true;
    send.disabled = false;
    send.focus();
  };
  const stop = onInboxEvent((event) => {
    if (event.challenge_id !== pending || pending === null) return;
    if (event.type === "challenge_cancelled") settle(t(`challenge_${event.cause ?? "expired"}`));
    else if (event.type === "challenge_started") pending = null; // the inbox opens the table
  });
  send.addEventListener("click", async () => {
    const session = signedIn();
    if (!session || pending) return;
    send.disabled = true;
    error.textContent = "";
    try {
      const made = await api.challenge({ to: [who], players: Number(size.value), rated: rated.checked }, session.token);
      const seat = made.tokens[0];
      if (made.match_id && seat) { // a house bot's challenge starts at once
        keepSeat(made.match_id, { seat: seat.seat, token: seat.token, name: session.name });
        go(`/m/${encodeURIComponent(made.match_id)}`);
        return;
      }
      pending = made.challenge_id;
      error.textContent = t("challenge_sent");
      withdraw.hidden = false;
      withdraw.focus();
    } catch (e) {
      const reason = e instanceof api.ApiError ? e.reason : "";
      error.textContent = reason === "player_offline" ? t("player_offline", { name: who })
        : reason === "challenge_refused" ? t("challenge_refused", { name: who }) : message(e);
      send.disabled = false;
    }
  });
  withdraw.addEventListener("click", async () => {
    const session = signedIn();
    const id = pending;
    if (!session || id === null) return;
    try {
      await api.call("delete", "/v1/challenges/{challenge_id}", { path: { challenge_id: id }, token: session.token });
      settle(t("challenge_withdrawn"));
    } catch (e) {
      error.textContent = message(e);
    }
  });
  const element = h("p", { class: "challenge" }, [h("label", {}, [t("table_size"), " ", size]), " ",
    h("label", {}, [rated, " ", t("rated")]), " ", send, " ", withdraw]);
  return { element, stop };
}

/** One match of the list: when it ended (the link to its replay), the rules, how the player did, the seats. @param {api.KeptMatch} kept */
function keptMatch(kept) {
  const mine = kept.seats.find((s) => s.seat === kept.seat);
  const result = kept.abandoned ? t("abandoned")
    : mine?.place ? t("placed", { n: mine.place, of: kept.seats.length, points: pointsText(mine.points) }) : "";
  return h("li", { class: "kept", "data-match": kept.match_id }, [
    h("a", { href: `/m/${encodeURIComponent(kept.match_id)}/replay`, class: "replay-link" }, [t("replay_of", { date: dateText(kept.ended_at) })]),
    h("p", { class: "kept-facts" }, [[rulesText(kept.rules), result].filter(Boolean).join(" · ")]),
    h("ul", { class: "kept-seats", "aria-label": t("seats_label") }, kept.seats.map(keptSeat)),
    ...(kept.rated && mine && mine.rating_before !== null && mine.rating_after !== null
      ? [h("p", { class: "rating-change" }, [ratingChange(mine.rating_before, mine.rating_after)])] : []),
  ]);
}

/**
 * @param {HTMLElement} root @param {string} name @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the view (nothing to stop)
 */
export async function showProfile(root, name, go) {
  const error = h("p", { id: "error", role: "alert", class: "error" });
  root.replaceChildren(error);
  /** @type {api.Player} */
  let found;
  try {
    found = await api.player(name);
  } catch (e) {
    error.textContent = e instanceof api.ApiError && e.status === 404 ? t("player_not_found") : message(e);
    root.append(h("p", {}, [h("a", { href: "/" }, [t("home")])]));
    return () => {};
  }
  const list = h("ol", { id: "history", class: "history" });
  const more = /** @type {HTMLButtonElement} */ (h("button", { id: "more", type: "button", hidden: true }, [t("more")]));
  const status = h("p", { id: "history-status", role: "status" });
  /** @type {string | null} */
  let cursor = null;
  /** Read the next page of the list; after "More", the focus goes to the first match it brought. */
  const load = async (/** @type {boolean} */ focus) => {
    more.disabled = true;
    try {
      const page = await api.playerMatches(found.name, cursor);
      const entries = page.matches.map(keptMatch);
      list.append(...entries);
      cursor = page.next_cursor;
      more.hidden = cursor === null;
      status.textContent = list.children.length === 0 ? t("no_matches") : "";
      if (focus) /** @type {HTMLElement | null} */ (entries[0]?.querySelector("a"))?.focus();
    } catch (e) {
      error.textContent = message(e);
    }
    more.disabled = false;
  };
  more.addEventListener("click", () => void load(true));
  const facts = /** @type {[string, string][]} */ ([
    [t("kind"), t(`kind_${found.kind}`)], [t("joined"), dateText(found.joined_at)],
    [t("games"), String(found.games)], [t("wins"), String(found.wins)],
  ]);
  const followers = h("dd", { id: "followers" }, [String(found.followers)]);
  const session = signedIn();
  const other = session && session.name.toLowerCase() !== found.name.toLowerCase() ? session : null;
  const form = other ? challengeForm(found.name, go, error) : null;
  root.replaceChildren(
    h("section", { "aria-labelledby": "profile-h", class: "panel" }, [
      h("h2", { id: "profile-h" }, [found.name]),
      h("dl", { id: "profile-facts", class: "facts" }, [
        ...facts.flatMap(([term, value]) => [h("dt", {}, [term]), h("dd", {}, [value])]), h("dt", {}, [t("followers")]), followers,
      ]),
      ...(other ? [h("p", {}, [followButton(found.name, other.token, followers, error)])] : []),
      playingPart(found),
      h("h3", {}, [t("ratings")]), ratings(found),
      ...(form ? [form.element] : []),
    ]),
    h("section", { "aria-labelledby": "history-h" }, [h("h2", { id: "history-h" }, [t("matches")]), list, status, more]),
    error,
  );
  await load(false);
  // the tournaments it finished, between its facts and its matches, with their words (loaded with them)
  void import("./tournaments/placings.js").then(({ placingsPart }) => placingsPart(found.name))
    .then((part) => { if (part) root.querySelector("section[aria-labelledby=history-h]")?.before(part); })
    .catch(() => {});
  return () => form?.stop();
}
