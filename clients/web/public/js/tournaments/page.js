// @ts-check
/** The tournaments' pages: the lists and the form at /tournaments, one tournament at /t/<id> (loaded when shown). */

import { h } from "../dom.js";
import { showTournamentList } from "./list.js";
import { showTournament } from "./tournament.js";

if (!document.querySelector("link[href='/web/tournaments.css']")) {
  document.head.append(h("link", { rel: "stylesheet", href: "/web/tournaments.css" }));
}

/**
 * @param {HTMLElement} root @param {string | undefined} id the tournament's, or none for the lists
 * @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the view
 */
export const showTournaments = (root, id, go) =>
  (id ? showTournament(root, decodeURIComponent(id), go) : showTournamentList(root, go));
