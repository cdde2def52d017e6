// @ts-check
/** The page's entry: the language menu and the two views, the lobby at / and a match at /m/<id>. */

import { h } from "./dom.js";
import { LANGUAGES, language, savedLanguage, setLanguage, t } from "./i18n.js";
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

// the menu offers every language of the list, each by its own name (and read in its own language)
switcher.replaceChildren(...LANGUAGES.map((lang) => h("option", { value: lang.code, lang: lang.code }, [lang.name])));
setLanguage(savedLanguage());
switcher.value = language();
switcher.addEventListener("change", () => { setLanguage(switcher.value); void route(); });
window.addEventListener("popstate", () => void route());
void route();
