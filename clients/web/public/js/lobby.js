// @ts-check
/**
 * The lobby, the first screen: Play (a Quick game or a Match against bots: start.js), the matches to resume, Play now
 * (quick play, signed in), join with a room code; behind "More options": creating a match with every option (its
 * rules read from GET /v1/rules; hosting open seats may need an account: then the page offers to sign in), the open
 * listed matches, join by link.
 */

import { accountForms } from "./account.js";
import * as api from "./api.js";
import { codeSection } from "./code.js";
import { h, message } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { forgetIfRevoked, signedIn } from "./session.js";
import { playNowSection } from "./quickplay.js";
import { LEVELS, startSection } from "./start.js";
import { forgetSeat, heldSeats, keepSeat } from "./store.js";

/** @typedef {import("./api.js").BotLevel} BotLevel */
/** @typedef {import("./api.js").RuleParameter} RuleParameter */

/** Rule parameters in the form's main part; the others (but `players`, which the seats decide) go under "More rules". */
const MAIN_RULES = ["hands", "scoring"];
const FORM_KEY = "tienlen.form";
/** The link to the first lesson (/learn), its words here: the lesson's own load only when it is opened. */
const LEARN = /** @type {Record<string, string>} */ ({ en: "New to Tiến Lên? Learn to play in 7 short steps", vi: "Mới chơi Tiến Lên? Học chơi qua 7 bước ngắn" });

/** @param {string} id @param {string} text @param {string[]} values @param {(v: string) => string} name @param {string} [chosen] */
const select = (id, text, values, name, chosen) => {
  const input = /** @type {HTMLSelectElement} */ (h("select", { id },
    values.map((v) => h("option", { value: v, selected: v === chosen }, [name(v)]))));
  return { input, row: h("label", { for: id }, [text, " ", input]) };
};

/** @param {string} id @param {string} text @param {Record<string, any>} attrs */
const field = (id, text, attrs) => {
  const input = /** @type {HTMLInputElement} */ (h("input", { id, ...attrs }));
  return { input, row: h("label", { for: id }, [text, " ", input]) };
};

/** The page's own text for `key`, else the contract's words. @param {string} key @param {string} fallback */
const own = (key, fallback) => (has(key) ? t(key) : fallback);

/**
 * One rule parameter of GET /v1/rules as a form field: a choice for an enum (with what the chosen value means),
 * a checkbox for a flag, a number within its bounds otherwise.
 * @param {string} name @param {RuleParameter} parameter
 * @returns {{name: string, row: HTMLElement, get: () => string | number | boolean, set: (v: unknown) => void}}
 */
function ruleField(name, parameter) {
  const id = name.replaceAll("_", "-");
  const label = own(`rule_${name}`, parameter.about);
  if (parameter.enum) {
    const about = h("small", { id: `${id}-about`, class: "about" });
    const choice = select(id, label, parameter.enum, (v) => own(`${name}_${v}`, v));
    const explain = () => { about.textContent = own(`${name}_${choice.input.value}_about`, parameter.values?.[choice.input.value] ?? ""); };
    choice.input.setAttribute("aria-describedby", about.id);
    choice.input.addEventListener("change", explain);
    return {
      name, row: h("div", { class: "rule" }, [choice.row, about]), get: () => choice.input.value,
      set: (v) => { choice.input.value = String(v); explain(); },
    };
  }
  if (parameter.type === "boolean") {
    const input = /** @type {HTMLInputElement} */ (h("input", { id, type: "checkbox" }));
    return {
      name, row: h("label", { for: id, class: "check" }, [input, " ", label]), get: () => input.checked,
      set: (v) => { input.checked = v === true; },
    };
  }
  const number = field(id, label, { type: "number", min: parameter.minimum ?? false, max: parameter.maximum ?? false });
  return { name, row: number.row, get: () => Number(number.input.value), set: (v) => { number.input.value = String(v); } };
}

/** The match id in a shared link ("…/m/<id>") or the id itself. @param {string} text */
export const matchIdOf = (text) => {
  const found = text.trim().match(/(?:\/m\/)?([A-Za-z0-9_-]+)\/?$/);
  return found ? found[1] : "";
};

/**
 * @param {HTMLElement} root @param {(path: string) => void} go
 * @returns {Promise<() => void>} stops the lobby (a quick-play search under way: see quickplay.js)
 */
export async function showLobby(root, go) {
  const quick = playNowSection(go);
  const error = h("p", { role: "alert", class: "error", id: "error" });
  const createButton = /** @type {HTMLButtonElement} */ (h("button", { id: "create", type: "button", disabled: true }, [t("start")]));
  const createPanel = h("section", { "aria-labelledby": "create-h", class: "panel" }, [h("h2", { id: "create-h" }, [t("create")])]);
  const mine = h("ul", { id: "my-matches" });
  const mineSection = h("section", { "aria-labelledby": "mine-h", class: "panel", id: "mine-panel" }, [h("h2", { id: "mine-h" }, [t("your_matches")]), mine]);
  const showMine = () => {
    const ids = Object.keys(heldSeats());
    mineSection.hidden = ids.length === 0; // nothing to resume: the first screen stays short
    mine.replaceChildren(...ids.map((id) => h("li", {}, [
      h("a", { href: `/m/${encodeURIComponent(id)}` }, [t("resume", { id })]), " ",
      h("button", { type: "button", class: "small", onclick: () => { forgetSeat(id); showMine(); } }, [t("forget")]),
    ])));
  };
  showMine();
  const open = h("ul", { id: "open-matches" });
  const loadOpen = async () => {
    try {
      const found = await api.lobby();
      open.replaceChildren(...(found.matches.length ? found.matches.map((match) => h("li", {}, [
        `${own(`preset_${match.rules.preset}`, match.rules.preset)} · `, match.seats.map((s) => s.open ? "—" : s.name).join(", "), " ",
        h("a", { href: `/m/${encodeURIComponent(match.match_id)}` }, [t("join")]),
      ])) : [h("li", {}, [t("none")])]));
    } catch (e) {
      open.replaceChildren(h("li", { class: "error" }, [message(e)]));
    }
  };
  const linkInput = /** @type {HTMLInputElement} */ (h("input", { id: "join-by-link", type: "text", inputmode: "url" }));
  const joinByLink = () => { const id = matchIdOf(linkInput.value); if (id) go(`/m/${encodeURIComponent(id)}`); };
  // the full options (rules, seats, clocks, open seats), the listed matches and joining by link: one click away
  const more = h("details", { id: "more-options" }, [h("summary", {}, [t("more_options")]),
    createPanel,
    h("section", { "aria-labelledby": "open-h", class: "panel" }, [
      h("h2", { id: "open-h" }, [t("open_matches")]), open,
      h("button", { type: "button", id: "reload-lobby", onclick: () => void loadOpen() }, [t("refresh")]),
    ]),
    h("section", { "aria-labelledby": "link-h", class: "panel" }, [
      h("h2", { id: "link-h" }, [t("join_link")]),
      h("label", { for: "join-by-link" }, [t("link_or_id"), " ", linkInput]),
      h("button", { type: "button", id: "open-link", onclick: joinByLink }, [t("go")]),
    ]),
  ]);
  const liveSlot = h("div", { id: "live-slot" });
  const learn = h("p", { class: "learn" }, [h("a", { id: "learn-link", href: "/learn",
    onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); go("/learn"); } }, [LEARN[language()] ?? LEARN.en])]);
  root.replaceChildren(startSection(go), liveSlot, mineSection, quick.element, learn, codeSection(go), more);
  // the live table to watch and the tournaments' link, loaded after the first screen is drawn; stopped with it
  let stopLive = () => {};
  let left = false;
  void import("./social/live.js").then(({ livePart }) => {
    if (left) return;
    const part = livePart(go);
    liveSlot.replaceChildren(part.element, h("p", {}, [h("a", { id: "tournaments-link", href: "/tournaments",
      onclick: (/** @type {MouseEvent} */ e) => { e.preventDefault(); go("/tournaments"); } }, [t("tournaments")])]));
    stopLive = part.stop;
  });
  const stop = () => { left = true; stopLive(); quick.stop(); };
  /** @type {api.Presets} */
  let catalog;
  try {
    [catalog] = await Promise.all([api.rules(), loadOpen()]);
  } catch (e) {
    error.textContent = t("rules_unavailable", { message: message(e) });
    createPanel.append(error);
    return stop;
  }
  createPanel.append(...createForm(catalog, createButton, error, go));
  return stop;
}

/**
 * The form that creates a match, from the contract's presets and rule parameters.
 * @param {api.Presets} catalog @param {HTMLButtonElement} createButton @param {HTMLElement} error
 * @param {(path: string) => void} go
 * @returns {HTMLElement[]}
 */
function createForm(catalog, createButton, error, go) {
  const name = field("name", t("your_name"), { value: localStorage.getItem("tienlen.name") || t("default_name"), maxlength: 40, required: true, autocomplete: "nickname" });
  // signed in, the account hosts the match and sits at its first seat under its own name
  const hostAs = h("p", { id: "host-as" });
  const showWho = () => {
    const session = signedIn();
    name.row.hidden = session !== null;
    hostAs.hidden = session === null;
    hostAs.textContent = session ? t("host_as", { name: session.name }) : "";
  };
  showWho();
  const signing = h("div", { id: "host-sign-in" });
  /** Hosting needs an account: say so and offer the forms; once signed in, Create hosts. @param {string} why */
  const offerSignIn = (why) => {
    error.textContent = why;
    signing.replaceChildren(accountForms(() => {
      signing.replaceChildren();
      showWho();
      error.textContent = "";
      createButton.focus();
    }));
    /** @type {HTMLElement | null} */ (signing.querySelector("#signin-name"))?.focus();
  };
  const seatCount = catalog.parameters.players ?? { about: "", minimum: 2, maximum: 4 };
  const most = seatCount.maximum ?? 4;
  const counts = Array.from({ length: most - (seatCount.minimum ?? 2) + 1 }, (_, i) => String((seatCount.minimum ?? 2) + i));
  const players = select("players", t("players"), counts, (v) => v, String(most));
  const seatKinds = Array.from({ length: most - 1 }, (_, i) => select(`seat-${i + 1}`, t("seat", { n: i + 2 }),
    [...LEVELS, "open"], (k) => t(k === "open" ? "open_seat" : `bot_${k}`), "medium"));
  const presets = Object.keys(catalog.presets);
  const preset = select("preset", t("preset"), presets, (p) => own(`preset_${p}`, p), catalog.default_preset);
  const rules = Object.entries(catalog.parameters).filter(([key]) => key !== "players").map(([key, p]) => ruleField(key, p));
  const clock = field("turn-seconds", t("clock"), { type: "number", min: 0, max: 3600, value: 0 });
  const timeouts = field("timeouts", t("timeouts"), { type: "number", min: 1, max: 10, value: 2 });
  const takeover = select("takeover", t("takeover"), LEVELS, (k) => t(`bot_${k}`), "medium");
  const listedBox = /** @type {HTMLInputElement} */ (h("input", { id: "listed", type: "checkbox" }));
  const listed = { input: listedBox, row: h("label", { for: "listed", class: "check" }, [listedBox, " ", t("listed")]) };
  const usePreset = () => {
    const chosen = /** @type {Record<string, unknown>} */ (catalog.presets[preset.input.value] ?? {});
    for (const rule of rules) rule.set(chosen[rule.name]);
  };
  const showSeats = () => seatKinds.forEach((s, i) => { s.row.hidden = i + 1 >= Number(players.input.value); });
  preset.input.addEventListener("change", usePreset);
  players.input.addEventListener("change", showSeats);
  usePreset();
  /** The form's choices (but the name, kept as "tienlen.name"), kept at each Create and put back the next time. */
  const choices = () => ({
    players: players.input.value, seats: seatKinds.map((s) => s.input.value), preset: preset.input.value,
    rules: Object.fromEntries(rules.map((r) => [r.name, r.get()])), clock: clock.input.value,
    timeouts: timeouts.input.value, takeover: takeover.input.value, listed: listed.input.checked,
  });
  const restore = () => {
    /** @type {Partial<ReturnType<typeof choices>>} */
    let kept;
    try {
      kept = JSON.parse(localStorage.getItem(FORM_KEY) ?? "{}") ?? {};
    } catch {
      return;
    }
    /** A select keeps only a value it offers. @param {HTMLSelectElement} input @param {unknown} value */
    const choose = (input, value) => { if ([...input.options].some((o) => o.value === value)) input.value = String(value); };
    choose(players.input, kept.players);
    seatKinds.forEach((s, i) => choose(s.input, kept.seats?.[i]));
    choose(preset.input, kept.preset);
    usePreset();
    for (const rule of rules) if (kept.rules && rule.name in kept.rules) rule.set(kept.rules[rule.name]);
    if (typeof kept.clock === "string") clock.input.value = kept.clock;
    if (typeof kept.timeouts === "string") timeouts.input.value = kept.timeouts;
    choose(takeover.input, kept.takeover);
    listed.input.checked = kept.listed === true;
  };
  restore();
  showSeats();

  const create = async () => {
    localStorage.setItem(FORM_KEY, JSON.stringify(choices()));
    const session = signedIn();
    if (!session) localStorage.setItem("tienlen.name", name.input.value);
    const host = session ? session.name : name.input.value;
    const count = Number(players.input.value);
    /** @type {api.CreateMatch["seats"]} */
    const seats = [{ type: /** @type {const} */ ("remote"), name: host }, ...seatKinds.slice(0, count - 1).map((s, i) =>
      s.input.value === "open" ? { type: /** @type {const} */ ("open"), open: /** @type {true} */ (true) }
        : { type: /** @type {const} */ ("bot"), name: t("bot_name", { n: i + 1 }), bot: /** @type {BotLevel} */ (s.input.value) })];
    // the preset and the parameters that differ from it
    const base = /** @type {Record<string, unknown>} */ (catalog.presets[preset.input.value] ?? {});
    /** @type {Record<string, unknown>} */
    const chosen = { preset: preset.input.value };
    for (const rule of rules) if (rule.get() !== base[rule.name]) chosen[rule.name] = rule.get();
    /** @type {api.CreateMatch} */
    const body = {
      seats, listed: listed.input.checked, takeover: /** @type {BotLevel} */ (takeover.input.value),
      rules: /** @type {api.CreateMatch["rules"]} */ (chosen),
    };
    if (Number(clock.input.value) > 0) {
      body.clock = { turn_seconds: Number(clock.input.value), timeouts_before_takeover: Number(timeouts.input.value) };
    }
    try {
      const created = await api.createMatch(body, session?.token);
      keepSeat(created.match_id, { seat: 0, token: created.tokens[0].token, name: host });
      go(`/m/${encodeURIComponent(created.match_id)}`);
    } catch (e) {
      if (forgetIfRevoked(e)) offerSignIn(t("session_ended"));
      else if (e instanceof api.ApiError && e.reason === "account_required") offerSignIn(t("hosting_needs_account"));
      else error.textContent = message(e);
    }
  };
  createButton.addEventListener("click", () => void create());
  createButton.disabled = false;
  const main = MAIN_RULES.flatMap((key) => rules.filter((r) => r.name === key));
  const more = rules.filter((r) => !MAIN_RULES.includes(r.name));
  return [
    hostAs,
    h("div", { class: "form-grid" }, [
      name.row, players.row, ...seatKinds.map((s) => s.row), preset.row, ...main.map((r) => r.row),
      clock.row, timeouts.row, takeover.row, listed.row,
    ]),
    h("details", { id: "more-rules" }, [h("summary", {}, [t("more_rules")]), h("div", { class: "form-grid" }, more.map((r) => r.row))]),
    createButton, error, signing,
  ];
}
