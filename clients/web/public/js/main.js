// @ts-check
/**
 * The page's entry: the language menu, the account bar, and each path's view (route: /, /m/<id>, /p/<name>, …).
 */

import { drawAccountBar, showAccount } from "./account.js";
import { h } from "./dom.js";
import { LANGUAGES, language, savedLanguage, setLanguage, t } from "./i18n.js";
import { checkSession, onSessionChange, signedIn } from "./session.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
const switcher = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
const bar = /** @type {HTMLElement} */ (document.getElementById("account-bar"));
let stop = () => {};
let shown = 0; // views shown: one overtaken while it loaded is stopped once ready

/** Show the view of the current path. */
async function route() {
  stop();
  stop = () => {};
  const mine = ++shown;
  /** @type {HTMLElement} */ (document.getElementById("lang-label")).textContent = t("language");
  /** @type {HTMLElement} */ (document.getElementById("board-link")).textContent = t("leaderboard");
  /** @type {HTMLElement} */ (document.getElementById("puzzles-link")).textContent = t("puzzles");
  drawAccountBar(bar, go);
  const path = location.pathname;
  const id = decodeURIComponent(path.split("/")[2] ?? "");
  const match = path.match(/^\/m\/([^/]+)$/);
  const replay = path.match(/^\/m\/([^/]+)\/replay$/);
  const watch = path.match(/^\/m\/([^/]+)\/watch$/);
  const profile = path.match(/^\/p\/([^/]+)$/);
  const tour = path.match(/^\/t(?:ournaments|\/([^/]+))$/);
  let stopView = () => {};
  // each screen loads its modules when first shown (a table opened by its link loads no lobby)
  if (match) stopView = await (await import("./table.js")).showTable(root, id, go);
  else if (watch) stopView = await (await import("./watch.js")).showWatch(root, id);
  else if (replay) stopView = await (await import("./replay.js")).showReplay(root, id);
  else if (profile) stopView = await (await import("./profile.js")).showProfile(root, id, go);
  else if (path === "/leaderboard") await (await import("./leaderboard.js")).showLeaderboard(root);
  else if (path === "/account") showAccount(root, go);
  else if (path === "/learn") await (await import("./lesson/page.js")).showLesson(root, go);
  else if (path === "/puzzles") stopView = await (await import("./puzzles/page.js")).showPuzzles(root);
  else if (path === "/friends") stopView = await (await import("./social/friends.js")).showFriends(root);
  else if (path === "/moderate") stopView = await (await import("./moderate/page.js")).showModerate(root);
  else if (tour) stopView = await (await import("./tournaments/page.js")).showTournaments(root, tour[1], go);
  else stopView = await (await import("./lobby.js")).showLobby(root, go);
  if (mine === shown) stop = stopView;
  else stopView();
}

/** @param {string} path */
function go(path) {
  history.pushState(null, "", path);
  void route();
}

// each language by its own name, read in its own language
switcher.replaceChildren(...LANGUAGES.map((lang) => h("option", { value: lang.code, lang: lang.code }, [lang.name])));
setLanguage(savedLanguage());
switcher.value = language();
switcher.addEventListener("change", () => { setLanguage(switcher.value); void route(); });
window.addEventListener("popstate", () => void route());
onSessionChange(() => drawAccountBar(bar, go));
if (signedIn()) await checkSession(); // a session revoked elsewhere is forgotten before a view sends it
const inbox = h("div", { id: "inbox", class: "inbox" });
root.before(inbox);
let listening = false;
/** Listen to the account's inbox once signed in (its module loads then: a page signed out never needs it). */
async function listenOnceSignedIn() {
  if (listening || !signedIn()) return;
  listening = true;
  (await import("./inbox.js")).listenToInbox(inbox, go);
}
onSessionChange(() => void listenOnceSignedIn());
void listenOnceSignedIn();
void route();
