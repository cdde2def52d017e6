// @ts-check
/** The seats around the table, and while players are awaited, the link that brings them. */

import { seatBoxes } from "../board.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("./state.js").TableState} TableState */

/**
 * @param {TableState} state
 * @returns {{share: HTMLElement, seats: HTMLElement, draw: () => void}}
 */
export function seatsPart(state) {
  const share = h("p", { id: "share" });
  const seats = h("div", { id: "seats", role: "list", "aria-label": t("seats_label") });
  const link = `${location.origin}/m/${encodeURIComponent(state.matchId)}`;
  const draw = () => {
    share.replaceChildren(...(state.view.status === "waiting"
      ? [t("waiting"), " ", h("a", { href: link, id: "join-link" }, [link])] : []));
    seats.replaceChildren(...seatBoxes(state.view));
  };
  return { share, seats, draw };
}
