// @ts-check
/**
 * The seats around the table, and while players are awaited, what brings them: the room code, large, with a Copy
 * button, and the match's link.
 */

import { seatBoxes } from "../board.js";
import { h, setText } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("./state.js").TableState} TableState */

/**
 * Put `text` on the clipboard: the Clipboard API, else a selected text area and the copy command.
 * @param {string} text @returns {Promise<boolean>} whether it was copied
 */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = /** @type {HTMLTextAreaElement} */ (h("textarea", { class: "offscreen", "aria-hidden": "true", readonly: true }));
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy"); // the fallback of pages without the Clipboard API
    area.remove();
    return done;
  }
}

/**
 * The code shown large, Copy beside it, and a line that says (politely) whether it was copied.
 * @param {string} code
 */
function roomCode(code) {
  const status = h("span", { id: "copy-status", role: "status" });
  const shown = h("span", { id: "room-code", class: "room-code" }, [code]);
  const copy = h("button", { id: "copy-code", type: "button", class: "small", onclick: async () => {
    const copied = await copyText(code);
    if (!copied) getSelection()?.selectAllChildren(shown); // selected: the player copies it by hand
    setText(status, copied ? t("code_copied") : t("code_copy_by_hand"));
  } }, [t("copy_code")]);
  return h("div", { id: "room" }, [
    h("p", { id: "room-label", class: "room-label" }, [t("room_code_is")]),
    h("p", { class: "room-line" }, [shown, copy, status]),
  ]);
}

/**
 * @param {TableState} state
 * @returns {{share: HTMLElement, seats: HTMLElement, draw: () => void}}
 */
export function seatsPart(state) {
  const share = h("section", { id: "share", "aria-label": t("waiting_label") });
  const seats = h("div", { id: "seats", role: "list", "aria-label": t("seats_label") });
  const link = `${location.origin}/m/${encodeURIComponent(state.matchId)}`;
  let shown = ""; // what the share part shows (drawn again only when that changes: Copy keeps the focus)
  const draw = () => {
    const code = state.view.status === "waiting" ? state.view.room_code ?? "" : null;
    const now = code === null ? "" : `waiting:${code}`;
    if (now !== shown) {
      shown = now;
      share.hidden = code === null;
      share.replaceChildren(...(code === null ? [] : [
        ...(code ? [roomCode(code)] : []),
        h("p", { id: "share-link" }, [t(code ? "or_link" : "waiting"), " ", h("a", { href: link, id: "join-link" }, [link])]),
      ]));
    }
    seats.replaceChildren(...seatBoxes(state.view));
  };
  return { share, seats, draw };
}
