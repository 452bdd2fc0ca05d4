// The lobby's account area: creating an account, signing in and out. Accounts are optional: anyone
// plays without one. The session is an HttpOnly cookie this page never sees; GET /api/me says who
// is signed in and gives the session's CSRF token, which every write of this page then carries
// (writeInit), with its own origin. At sign-up and sign-in the seats this browser holds go along,
// so that they become the account's.

import { $ } from "./dom.js";
import { has, t, tn } from "./i18n.js";
import { heldSeats } from "./storage.js";
import { renderMyRatings } from "./profile.js";

export const MAX_SEATS = 100; // the most seats a sign-in brings (the server's MAX_SEAT_CLAIMS)

let account = null; // { name, csrf, ratings } while signed in
let mode = null; // "sign_in" or "sign_up" while the form is open
let claimed = 0; // how many seats the last sign-in brought
let refusal = null; // the last refusal: { status, body, retryAfter }
let markSeen = null; // the server's mark of the sign-in when this page last asked who is signed in

/** Who is signed in ({ name, csrf }), or null. */
export const signedIn = () => account;

const watchers = []; // called when who is signed in changes (the lobby's seeks follow the account)
let shownFor; // the name the watchers were last told of (undefined: none told yet)

/** Call `fn(account)` whenever who is signed in changes, and once at the start. */
export function onAccountChange(fn) {
  watchers.push(fn);
}

/** A fetch's init for a request that changes something: it names this page's origin whatever the
 * page's Referrer-Policy (no-referrer, under which a browser may send "Origin: null") and, while
 * signed in, carries the session's CSRF token, without which the server refuses a write that
 * carries the session cookie. */
export function writeInit(init = {}, who = account) {
  const headers = { ...(init.headers || {}) };
  if (who && who.csrf) headers["x-csrf-token"] = who.csrf;
  return { ...init, headers, credentials: "same-origin", referrerPolicy: "same-origin" };
}

/** The seats to bring to an account: those this browser holds (storage.js heldSeats()), the most
 * recently used first, at most `max`, each as { game, token }. */
export function seatsToBring(held, max = MAX_SEATS) {
  return Object.entries(held || {})
    .filter(([game, seat]) => game && seat && typeof seat.token === "string" && seat.token)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, max)
    .map(([game, seat]) => ({ game, token: seat.token }));
}

/** A refusal of the account's requests in this page's words, from the server's code (the server's
 * own sentence is English): a wait in seconds for too many wrong passwords, the status otherwise. */
export function refusalText(status, body, retryAfter) {
  const code = body && typeof body.code === "string" ? body.code : "";
  if (code === "too_many") return t("account.error.too_many", { seconds: Number(retryAfter) || 60 });
  if (code === "csrf") return t("account.error.cross_site");
  if (code && has(`account.error.${code}`)) return t(`account.error.${code}`);
  if (status === 0) return t("account.error.network");
  return t("account.error.other", { status });
}

/** The server's mark of the sign-in, or null when no session may be open: the readable cookie
 * cassino_account (a random value, no secret) is set beside the session's own (which no script
 * reads), anew at each sign-in, and cleared with it. */
export function signInMark(cookies) {
  const found = cookies.split(";").map((c) => c.trim()).find((c) => c.startsWith("cassino_account="));
  return found ? found.slice("cassino_account=".length) : null;
}

/** Who is signed in, asked of the server only when a session may be open (a cookie whose session
 * ended is cleared by the answer). */
async function loadAccount() {
  markSeen = signInMark(document.cookie);
  if (!markSeen) { account = null; return; }
  try {
    const r = await fetch("/api/me", { credentials: "same-origin" });
    account = r.ok ? await r.json() : null;
  } catch {
    account = null;
  }
}

/** The account area as things stand, in the language now chosen. */
export function renderAccount() {
  if (!$("account")) return;
  const who = account ? account.name : null;
  if (who !== shownFor) {
    shownFor = who;
    for (const fn of watchers) fn(account);
  }
  $("account-out").hidden = Boolean(account);
  $("account-in").hidden = !account;
  $("account-who").textContent = account ? t("account.signed_in_as", { name: account.name }) : "";
  $("account-claimed").textContent = account && claimed ? tn("account.claimed", claimed) : "";
  const form = $("account-form");
  form.hidden = !mode;
  $("account-choices").hidden = Boolean(mode);
  if (mode) {
    const up = mode === "sign_up";
    $("account-form-title").textContent = t(up ? "account.sign_up" : "account.sign_in");
    $("account-submit").textContent = t(up ? "account.submit_sign_up" : "account.sign_in");
    $("account-password").autocomplete = up ? "new-password" : "current-password";
    $("account-name-rule").hidden = !up;
    $("account-password-rule").hidden = !up;
  }
  $("account-error").textContent = refusal ? refusalText(refusal.status, refusal.body, refusal.retryAfter) : "";
  renderMyRatings(account);
}

function open(which) {
  mode = which;
  refusal = null;
  renderAccount();
  $("account-name").focus();
}

function close() {
  mode = null;
  refusal = null;
  $("account-password").value = "";
  renderAccount();
}

/** Send the form: a new account or a sign-in, with the seats this browser holds. */
async function submit(event) {
  event.preventDefault();
  const url = mode === "sign_up" ? "/api/accounts" : "/api/session";
  const body = {
    name: $("account-name").value.trim(),
    password: $("account-password").value,
    seats: seatsToBring(heldSeats()),
  };
  $("account-submit").disabled = true;
  try {
    const r = await fetch(url, writeInit({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) {
      refusal = { status: r.status, body: answer, retryAfter: r.headers.get("retry-after") };
      if (answer.code === "csrf" || answer.code === "cross_site") await loadAccount(); // another tab changed the session
      renderAccount();
      $("account-password").focus();
      return;
    }
    account = { name: answer.name, csrf: answer.csrf, ratings: answer.ratings || {} };
    markSeen = signInMark(document.cookie);
    claimed = (answer.claimed || []).length;
    close();
    $("account-sign-out").focus();
  } catch {
    refusal = { status: 0, body: {}, retryAfter: null };
    renderAccount();
  } finally {
    $("account-submit").disabled = false;
  }
}

async function signOut() {
  const r = await fetch("/api/session", writeInit({ method: "DELETE" })).catch(() => null);
  claimed = 0;
  if (r && r.ok) { account = null; markSeen = null; }
  else await loadAccount(); // refused (another tab signed in as someone else): show who it is now
  renderAccount();
  if (!account) $("account-show-sign-in").focus();
}

/** Ask again for the signed-in player's ratings (a rated game may have ended since), when signed in. */
export async function refreshRatings() {
  if (!account) return;
  try {
    const r = await fetch("/api/me", { credentials: "same-origin" });
    if (r.ok) account = { ...account, ratings: (await r.json()).ratings || {} };
  } catch {
    return; // the ratings shown stay as they were
  }
  renderAccount();
}

/** Wire the account area and ask who is signed in (before the page sends any write). */
export async function startAccount() {
  $("account-show-sign-in").addEventListener("click", () => open("sign_in"));
  $("account-show-sign-up").addEventListener("click", () => open("sign_up"));
  $("account-cancel").addEventListener("click", close);
  $("account-form").addEventListener("submit", submit);
  $("account-sign-out").addEventListener("click", signOut);
  // another tab signed in or out meanwhile: ask again, so that this page's writes carry the right token
  const recheck = async () => {
    if (signInMark(document.cookie) === markSeen) return;
    claimed = 0;
    await loadAccount();
    renderAccount();
  };
  window.addEventListener("focus", recheck);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) recheck(); });
  await loadAccount();
  renderAccount();
}
