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
