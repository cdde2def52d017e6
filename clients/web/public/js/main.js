// @ts-check
/** The page's entry: the language switch and the two views, the lobby at / and a match at /m/<id>. */

import { language, setLanguage, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
const switcher = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
let stop = () => {};

/** Show the view of the current path. */
async function route() {
  stop();
  stop = () => {};
  /** @type {HTMLElement} */ (document.getElementById("lang-label")).textContent = t("language");
  const found = location.pathname.match(/^\/m\/([^/]+)$/);
  if (found) stop = await showTable(root, decodeURIComponent(found[1]), go);
  else await showLobby(root, go);
}

/** @param {string} path */
function go(path) {
  history.pushState(null, "", path);
  void route();
}

setLanguage(language());
switcher.value = language();
switcher.addEventListener("change", () => { setLanguage(switcher.value); void route(); });
window.addEventListener("popstate", () => void route());
void route();
