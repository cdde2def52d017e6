// @ts-check
/**
 * Checking a finished match's fair deal (protocol tienlen-deal/1, docs/fair-deals.md) in the browser: SHA-256 of
 * the revealed secret must be the commitment published before any seat acted, and every hand's deal must be the one
 * the protocol gives from the secret, the match id, the hand number and each seat's entropy. Web Crypto's SHA-256;
 * no import, so node runs it as it is (tests/web/test_fair_deal_js.py).
 */

/**
 * A replay's `fair_deal` (typed here until openapi/openapi.json has it).
 * @typedef {object} FairDeal
 * @property {string} protocol "tienlen-deal/1"
 * @property {string} match_id
 * @property {string} commitment 64 hex digits: SHA-256 of the secret
 * @property {string} secret 64 hex digits: the server's secret, revealed once the match is finished
 * @property {string[]} entropy each seat's entropy ("" for none)
 */

/**
 * What a deal check needs of a replay.
 * @typedef {{hands: {hand_number: number, deal: string[][]}[], fair_deal?: FairDeal | null}} FairReplay
 */

/**
 * What checking found: `verified`, the hands whose deal held, and the first problem: `fields` (a field missing or
 * malformed), `commitment` (SHA-256 of the secret is not the commitment), `match` (it is another match's), `hand`
 * (hand `hand`'s deal is not the protocol's), or `unavailable` (no Web Crypto: a page that is not https).
 * @typedef {{verified: boolean, hands: number, problem: null | "fields" | "commitment" | "match" | "hand" | "unavailable", hand?: number}} FairDealCheck
 */

export const PROTOCOL = "tienlen-deal/1";
const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
const SUITS = "SCDH";
const HEX64 = /^[0-9a-f]{64}$/;
const TEXT = new TextEncoder();

/** A card's wire text from its number (rank × 4 + suit: 0 = 3S, 51 = 2H). @param {number} card */
export const cardText = (card) => RANKS[Math.floor(card / 4)] + SUITS[card % 4];

/** A card's number from its wire text, or -1 for anything else. @param {unknown} text */
export function cardNumber(text) {
  if (typeof text !== "string") return -1;
  const rank = RANKS.indexOf(text.slice(0, -1));
  const suit = SUITS.indexOf(text.slice(-1));
  return rank < 0 || suit < 0 || text.length < 2 ? -1 : rank * 4 + suit;
}

/** SHA-256 of `bytes`. @param {Uint8Array<ArrayBuffer>} bytes */
async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
}

/** Lowercase hex of `bytes`. @param {Uint8Array<ArrayBuffer>} bytes */
export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The bytes of 64 hex digits. @param {string} text */
const fromHex = (text) => Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));

/** An unsigned big-endian integer of `size` bytes. @param {number} value @param {1 | 2 | 4} size */
function unsigned(value, size) {
  const bytes = new Uint8Array(size);
  for (let i = size - 1, v = value; i >= 0; i -= 1, v = Math.floor(v / 256)) bytes[i] = v % 256;
  return bytes;
}

/** The byte strings joined. @param {Uint8Array<ArrayBuffer>[]} parts */
function joined(parts) {
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => { all.set(part, at); return at + part.length; }, 0);
  return all;
}

/** The commitment to a secret: lowercase hex of its SHA-256. @param {Uint8Array<ArrayBuffer>} secret */
export async function commitment(secret) {
  return hex(await sha256(secret));
}

/**
 * The hand key K_n: SHA-256 of "tienlen-deal/1" || secret || u16be length || match id || u32be n || u8 P ||
 * for each seat u16be length || its entropy (UTF-8).
 * @param {Uint8Array<ArrayBuffer>} secret @param {string} matchId @param {number} hand @param {string[]} entropy
 */
export async function handKey(secret, matchId, hand, entropy) {
  const id = TEXT.encode(matchId);
  const seats = entropy.flatMap((given) => { const bytes = TEXT.encode(given); return [unsigned(bytes.length, 2), bytes]; });
  return sha256(joined([TEXT.encode(PROTOCOL), secret, unsigned(id.length, 2), id, unsigned(hand, 4), unsigned(entropy.length, 1), ...seats]));
}

/**
 * Each seat's 13 cards of hand `hand` (1, 2, …), as wire text low to high: the deck 0..51 shuffled by the words of
 * SHA-256(K_n || u32be b), b = 0, 1, …, from i = 51 down to 1 (a word at or above the limit skipped); seat s gets
 * cards 13s to 13s + 12.
 * @param {Uint8Array<ArrayBuffer>} secret @param {string} matchId @param {number} hand @param {string[]} entropy
 */
export async function handDeal(secret, matchId, hand, entropy) {
  const key = await handKey(secret, matchId, hand, entropy);
  /** @type {number[]} */
  const words = [];
  let block = 0;
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i >= 1; i -= 1) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let word;
    do {
      if (words.length === 0) {
        const bytes = await sha256(joined([key, unsigned(block, 4)]));
        const view = new DataView(bytes.buffer);
        for (let k = 0; k < 8; k += 1) words.push(view.getUint32(4 * k, false));
        block += 1;
      }
      word = /** @type {number} */ (words.shift());
    } while (word >= limit);
    const j = word % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return entropy.map((_, s) => deck.slice(13 * s, 13 * s + 13).sort((a, b) => a - b).map(cardText));
}

/**
 * Check the fair deal of match `matchId`'s replay; null for a replay without one (a deal its creator fixed).
 * @param {FairReplay} replay @param {string} matchId
 * @returns {Promise<FairDealCheck | null>}
 */
export async function verifyReplay(replay, matchId) {
  const fair = replay.fair_deal;
  if (fair === undefined || fair === null) return null;
  if (!globalThis.crypto?.subtle) return { verified: false, hands: 0, problem: "unavailable" };
  const entropy = fair.entropy;
  if (fair.protocol !== PROTOCOL || !HEX64.test(fair.secret) || !HEX64.test(fair.commitment) || typeof fair.match_id !== "string"
    || !Array.isArray(entropy) || entropy.length < 2 || entropy.length > 4 || !entropy.every((e) => typeof e === "string")) {
    return { verified: false, hands: 0, problem: "fields" };
  }
  const secret = fromHex(fair.secret);
  if (await commitment(secret) !== fair.commitment) return { verified: false, hands: 0, problem: "commitment" };
  if (fair.match_id !== matchId) return { verified: false, hands: 0, problem: "match" };
  let checked = 0;
  for (const { hand_number: hand, deal } of replay.hands) {
    const wanted = await handDeal(secret, fair.match_id, hand, entropy);
    const given = Array.isArray(deal) ? deal.map((cards) => Array.isArray(cards) ? cards.map(cardNumber).sort((a, b) => a - b) : []) : [];
    const same = given.length === wanted.length && wanted.every((cards, s) => cards.map(cardNumber).join() === given[s].join());
    if (!same) return { verified: false, hands: checked, problem: "hand", hand };
    checked += 1;
  }
  return { verified: true, hands: checked, problem: null };
}
