// @ts-check
/**
 * One tournament at /t/<id>: its terms and status, "Your table is ready" with a link while the account's table is
 * seated, Join / Withdraw (open) and Cancel (its creator, open), the live standings, each round's tables (Watch, or
 * the Replay once ended; the account's own table opens as its seat), and the entrants (bots marked). It follows the
 * tournament's events by long poll (GET …/events) and draws it again after each.
 */

import * as api from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { dateText } from "../profile.js";
import { signedIn } from "../session.js";
import { keepSeat } from "../store.js";
import { factsOf } from "./list.js";
import { refusalText } from "./words.js";

/** @typedef {import("../../../types/openapi").components["schemas"]["Tournament"]} Tournament */
/** @typedef {import("../../../types/openapi").components["schemas"]["TournamentStandings"]} Standings */
/** @typedef {import("../../../types/openapi").components["schemas"]["TournamentSitter"]} Sitter */

/** Seconds each long poll of the events waits; milliseconds before asking again after a failure. */
const WAIT_S = 25;
const RETRY_MS = 3000;

/** A sitter's name, a bot marked. @param {Sitter} sitter */
const sitterText = (sitter) => sitter.house ? `${sitter.name} (${t("t_house")})` : sitter.bot ? `${sitter.name} (${t("t_bot")})` : sitter.name;

/** The standings as a table. @param {Standings} standings */
function standingsTable(standings) {
  const head = [t("t_rank"), t("t_player"), t("t_score"), t("t_matches"), t("t_firsts")].map((x) => h("th", { scope: "col" }, [x]));
  const rows = standings.standings.map((s) => h("tr", { "data-name": s.name }, [
    h("td", {}, [String(s.rank)]),
    h("th", { scope: "row" }, [h("a", { href: `/p/${encodeURIComponent(s.name)}` }, [s.name]),
      ...(s.bot ? [" ", h("span", { class: "t-bot" }, [t("t_bot")])] : []),
      ...(s.withdrawn ? [" ", h("span", {}, [`(${t("t_withdrawn")})`])] : [])]),
    h("td", {}, [String(Math.round(s.score * 100) / 100), s.percent === null ? "" : ` (${t("t_percent", { p: s.percent.toFixed(1) })})`]),
    h("td", {}, [String(s.matches)]), h("td", {}, [String(s.firsts)]),
  ]));
  return h("div", { class: "t-scroll" }, [h("table", { id: "t-standings", class: "t-table" }, [
    h("caption", {}, [standings.final ? t("t_final") : t("t_standings")]),
    h("thead", {}, [h("tr", {}, head)]), h("tbody", {}, rows),
  ])]);
}

/**
 * @param {HTMLElement} root @param {string} id @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops following the tournament
 */
export async function showTournament(root, id, go) {
  const session = signedIn();
  const token = session?.token;
  const path = { tournament_id: id };
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const body = h("div", { id: "tournament" });
  let stopped = false;
  /** A link that opens in the page. @param {string} href @param {string} text @param {Record<string, any>} [attrs] */
  const link = (href, text, attrs = {}) => h("a", { href, ...attrs, onclick: (/** @type {MouseEvent} */ e) => {
    e.preventDefault();
    go(href);
  } }, [text]);
  /** The account's own table: its seat kept for the table page, which then acts with the session's token. @param {string} matchId @param {number} seat @param {string} text @param {string} elementId */
  const ownTable = (matchId, seat, text, elementId) => h("a", { id: elementId, class: "button primary", href: `/m/${encodeURIComponent(matchId)}`,
    onclick: (/** @type {MouseEvent} */ e) => {
      e.preventDefault();
      if (session) keepSeat(matchId, { seat, token: session.token, name: session.name });
      go(`/m/${encodeURIComponent(matchId)}`);
    } }, [text]);
  /** @param {() => Promise<unknown>} act */
  const acting = (act) => async () => {
    try {
      await act();
      await draw();
    } catch (e) {
      error.textContent = refusalText(e);
    }
  };

  const draw = async () => {
    const [one, standings] = await Promise.all([
      api.call("get", "/v1/tournaments/{tournament_id}", { path, token }),
      api.call("get", "/v1/tournaments/{tournament_id}/standings", { path }),
    ]);
    if (stopped) return;
    const terms = one.terms;
    const active = one.entrants.filter((e) => !e.withdrawn).length;
    const facts = factsOf({ ...terms, tournament_id: one.tournament_id, creator: one.creator, status: one.status, entrants: active, entered: one.entered });
    const more = [t("preset"), ": ", terms.preset, " · ", t("t_hands"), ": ", String(terms.hands), " · ", t("t_turn"), ": ",
      String(terms.turn_seconds), ...(terms.rounds ? [" · ", t("t_rounds"), ": ", String(terms.rounds)] : []),
      ...(terms.window_s ? [" · ", t("t_window"), ": ", String(Math.round(terms.window_s / 60))] : []),
      ...(terms.deals ? [" · ", t("t_deals"), ": ", String(terms.deals)] : [])];
    const actions = [];
    if (session && one.status === "open") {
      actions.push(one.entered
        ? h("button", { type: "button", id: "t-withdraw", onclick: acting(() => api.call("delete", "/v1/tournaments/{tournament_id}/entry", { path, token: session.token })) }, [t("t_withdraw")])
        : h("button", { type: "button", id: "t-join", class: "primary", onclick: acting(() => api.call("put", "/v1/tournaments/{tournament_id}/entry", { path, token: session.token })) }, [t("t_join")]));
      if (session.name.toLowerCase() === one.creator.toLowerCase()) {
        actions.push(" ", h("button", { type: "button", id: "t-cancel", onclick: acting(() => api.call("delete", "/v1/tournaments/{tournament_id}", { path, token: session.token })) }, [t("t_cancel")]));
      }
    }
    const you = one.you;
    const ready = you && !one.rounds.some((r) => r.tables.some((table) => table.match_id === you.match_id && table.ended))
      ? [h("p", { id: "t-ready", class: "t-ready", role: "status" }, [t("t_your_table", { round: you.round, table: you.table }), " ",
        ownTable(you.match_id, you.seat, t("t_go_table"), "t-go-table")])]
      : [];
    const rounds = [...one.rounds].reverse().map((round) => h("section", { "aria-labelledby": `t-round-${round.number}`, class: "t-round" }, [
      h("h3", { id: `t-round-${round.number}` }, [t("t_round", { n: round.number })]),
      h("ul", {}, round.tables.map((table) => {
        const mine = you?.match_id === table.match_id;
        const where = `/m/${encodeURIComponent(table.match_id)}`;
        const open = mine && !table.ended && you
          ? ownTable(table.match_id, you.seat, t("t_play"), `t-play-${table.number}`)
          : table.ended ? link(`${where}/replay`, t("t_replay")) : link(`${where}/watch`, t("t_watch"), { class: "watch-link" });
        return h("li", { "data-match": table.match_id, class: mine ? "t-mine" : "" }, [
          `${t("t_table", { n: table.number })}: ${table.sitters.map(sitterText).join(", ")}`,
          table.ended ? ` (${t("t_ended")})` : "", " ", open,
        ]);
      })),
    ]));
    const entrants = one.entrants.length ? one.entrants.map((e) => h("li", { "data-name": e.name }, [
      h("a", { href: `/p/${encodeURIComponent(e.name)}` }, [e.name]), ...(e.bot ? [" ", h("span", { class: "t-bot" }, [t("t_bot")])] : []),
      ...(e.withdrawn ? [` (${t("t_withdrawn")})`] : []),
    ])) : [h("li", {}, [t("t_no_entrants")])];
    body.replaceChildren(
      h("h2", { id: "t-name" }, [terms.name]),
      h("p", { id: "t-status", "data-status": one.status }, [t(`t_status_${one.status}`), " · ", t("t_by", { name: one.creator }),
        ...(one.started_at ? [" · ", dateText(one.started_at)] : [])]),
      h("p", { id: "t-facts" }, [facts]), h("p", {}, more), ...ready,
      ...(actions.length ? [h("p", {}, actions)] : []),
      ...(standings.standings.length ? [standingsTable(standings)] : []),
      ...rounds,
      h("section", { "aria-labelledby": "t-entrants-h" }, [h("h3", { id: "t-entrants-h" }, [t("t_entrants_h")]),
        h("ul", { id: "t-entrants" }, entrants)]),
    );
    return one.status;
  };

  root.replaceChildren(h("section", { class: "panel" }, [link("/tournaments", t("t_back"), { id: "t-back" }), body, error]));
  let status;
  try {
    status = await draw();
  } catch (e) {
    error.textContent = refusalText(e);
    return () => {};
  }
  // follow the feed while the tournament is not over: each page of events draws it again
  void (async () => {
    let after = 0;
    let first = true;
    while (!stopped && status !== "finished" && status !== "cancelled") {
      try {
        const feed = await api.call("get", "/v1/tournaments/{tournament_id}/events", { path, query: { after, wait: first ? 0 : WAIT_S } });
        const news = feed.events.length > 0 && !first;
        after = feed.last_seq;
        first = false;
        if (news && !stopped) status = await draw();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  })();
  return () => { stopped = true; };
}
