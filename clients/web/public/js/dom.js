// @ts-check
/** A tiny helper to build elements. */

/**
 * @param {string} tag @param {Record<string, any>} [attrs] @param {(Node | string)[]} [children]
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  node.append(...children);
  return node;
}

/** Set a text only when it changes, so a live region announces changes, not every redraw. @param {HTMLElement} el @param {string} text */
export const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };

/** What went wrong, as the page shows it: an error's message, else the thing thrown in words. @param {unknown} e */
export const message = (e) => (e instanceof Error ? e.message : String(e));
