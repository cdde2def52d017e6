// @ts-check
/** A profile's tournaments: where the player finished each one it played to its end (GET /v1/players/{name}/tournaments). */

import * as api from "../api.js";
import { h } from "../dom.js";
import { language, t } from "../i18n.js";
import "./words.js";

/** @typedef {import("../../../types/openapi").components["schemas"]["Placing"]} Placing */

/** One placing: the tournament (a link to its page), its format and table size, the place of how many, the date. @param {Placing} p */
function placing(p) {
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(p.ended_at));
  return h("li", { "data-tournament": p.tournament_id }, [
    h("a", { href: `/t/${encodeURIComponent(p.tournament_id)}` }, [p.name]), " · ",
    t(`t_format_${p.format}`), " · ", t("t_tables_of", { n: p.players }), " · ",
    h("strong", { class: "placed" }, [t("t_placed", { n: p.place, of: p.entrants })]), " · ", when,
  ]);
}

/** The section of the player's tournaments (nothing shown when it has none). @param {string} name @returns {Promise<HTMLElement | null>} */
export async function placingsPart(name) {
  const found = await api.call("get", "/v1/players/{name}/tournaments", { path: { name }, query: { limit: 20 } });
  if (found.placings.length === 0) return null;
  return h("section", { id: "placings", "aria-labelledby": "placings-h" }, [
    h("h2", { id: "placings-h" }, [t("t_title")]),
    h("ol", { class: "history" }, found.placings.map(placing)),
  ]);
}
