// @ts-check
/**
 * Signing up, in and out: the two forms (on the account page at /account, and in the lobby when hosting needs an
 * account), and the header's account bar (sign in, or your profile and sign out).
 */

import * as api from "./api.js";
import { h, message } from "./dom.js";
import { has, t } from "./i18n.js";
import { signedIn, signIn, signOut, signUp } from "./session.js";

/** An account's name as the server takes it (3 to 20 of A-Z a-z 0-9 _ -). */
const NAME = /^[A-Za-z0-9_-]{3,20}$/;

/** What the page says about a refusal: its own words for a reason it knows, else the server's message. @param {unknown} e */
export const refusal = (e) => (e instanceof api.ApiError && has(`reason_${e.reason}`) ? t(`reason_${e.reason}`) : message(e));

/** @param {string} id @param {string} text @param {Record<string, any>} attrs @param {string} [about] */
function input(id, text, attrs, about) {
  const field = /** @type {HTMLInputElement} */ (h("input", { id, ...attrs, "aria-describedby": about ? `${id}-about` : false }));
  const row = h("div", { class: "field" }, [h("label", { for: id }, [text]), field,
    ...(about ? [h("small", { id: `${id}-about`, class: "about" }, [about])] : [])]);
  return { field, row };
}

/**
 * One form (sign in or sign up): a name and a password, its button, its error line.
 * @param {"signin" | "signup"} kind @param {() => void} done called once signed in
 */
function accountForm(kind, done) {
  const up = kind === "signup";
  const name = input(`${kind}-name`, t("account_name"), {
    autocomplete: "username", required: true, maxlength: 20, autocapitalize: "none", spellcheck: "false",
  }, up ? t("account_name_rule") : undefined);
  const password = input(`${kind}-password`, t("password"), {
    type: "password", autocomplete: up ? "new-password" : "current-password", required: true, maxlength: 128,
    minlength: up ? 8 : false,
  }, up ? t("password_rule") : undefined);
  const error = h("p", { id: `${kind}-error`, role: "alert", class: "error" });
  const button = /** @type {HTMLButtonElement} */ (h("button", { id: kind, type: "submit" }, [t(kind)]));
  const submit = async (/** @type {Event} */ event) => {
    event.preventDefault();
    error.textContent = "";
    const [who, secret] = [name.field.value.trim(), password.field.value];
    const wrong = !who ? name.field : up && !NAME.test(who) ? name.field : !secret || (up && secret.length < 8) ? password.field : null;
    if (wrong) {
      error.textContent = wrong === name.field ? t(up ? "account_name_rule" : "name_needed") : t(up ? "password_rule" : "password_needed");
      wrong.setAttribute("aria-invalid", "true");
      wrong.focus();
      return;
    }
    name.field.removeAttribute("aria-invalid");
    password.field.removeAttribute("aria-invalid");
    button.disabled = true;
    try {
      await (up ? signUp(who, secret) : signIn(who, secret));
      done();
    } catch (e) {
      error.textContent = refusal(e);
      password.field.value = "";
      password.field.focus();
    }
    button.disabled = false;
  };
  const heading = h("h2", { id: `${kind}-h` }, [t(kind)]);
  return h("section", { "aria-labelledby": heading.id, class: "account-form" }, [heading,
    h("form", { id: `${kind}-form`, novalidate: true, onsubmit: submit }, [name.row, password.row, button, error])]);
}

/**
 * The sign-in and sign-up forms side by side; `done` runs once either signed in.
 * @param {() => void} done
 */
export const accountForms = (done) => h("div", { class: "form-grid account-forms" }, [accountForm("signin", done), accountForm("signup", done)]);

/** Where to go after signing in: a path of this site from `?next=`, else the lobby. */
function nextPath() {
  const next = new URLSearchParams(location.search).get("next") ?? "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/**
 * The account page: the forms when signed out; who you are, your profile and Sign out when signed in.
 * @param {HTMLElement} root @param {(path: string) => void} go
 */
export function showAccount(root, go) {
  const session = signedIn();
  if (!session) {
    root.replaceChildren(accountForms(() => go(nextPath())));
    /** @type {HTMLElement | null} */ (root.querySelector("#signin-name"))?.focus();
    return;
  }
  const error = h("p", { id: "error", role: "alert", class: "error" });
  const out = h("button", { id: "account-sign-out", type: "button", onclick: async () => {
    try {
      await signOut();
      go("/account");
    } catch (e) {
      error.textContent = message(e);
    }
  } }, [t("sign_out")]);
  root.replaceChildren(h("section", { "aria-labelledby": "account-h", class: "panel" }, [
    h("h2", { id: "account-h" }, [t("account")]),
    h("p", { id: "signed-in-as" }, [t("signed_in_as", { name: session.name })]),
    h("p", {}, [h("a", { href: `/p/${encodeURIComponent(session.name)}`, id: "my-profile" }, [t("your_profile")]), " ", out]),
    error,
  ]));
}

/**
 * The header's account part: "Sign in" when signed out; your name (your profile) and Sign out when signed in.
 * @param {HTMLElement} bar @param {(path: string) => void} go
 */
export function drawAccountBar(bar, go) {
  bar.setAttribute("aria-label", t("account"));
  const session = signedIn();
  if (!session) {
    // back where you were once signed in
    const here = location.pathname === "/account" ? "" : `?next=${encodeURIComponent(location.pathname)}`;
    bar.replaceChildren(h("a", { href: `/account${here}`, id: "sign-in-link" }, [t("sign_in_or_up")]));
    return;
  }
  const error = h("span", { role: "alert", class: "bar-error" });
  const out = h("button", { id: "sign-out", type: "button", class: "small", onclick: async () => {
    try {
      await signOut();
      go(location.pathname === "/account" ? "/account" : location.pathname + location.search);
      /** @type {HTMLElement | null} */ (document.getElementById("sign-in-link"))?.focus();
    } catch (e) {
      error.textContent = message(e);
    }
  } }, [t("sign_out")]);
  bar.replaceChildren(
    h("a", { href: `/p/${encodeURIComponent(session.name)}`, id: "profile-link", "aria-label": t("profile_of", { name: session.name }) }, [session.name]),
    h("a", { href: "/friends", id: "friends-link" }, [t("friends")]),
    out, error,
  );
}
