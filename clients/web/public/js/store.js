// @ts-check
/** The seats this browser holds: one token per match, kept in localStorage. */

const KEY = "tienlen.seats";

/** @typedef {{seat: number, token: string, name: string}} HeldSeat */

/** @returns {Record<string, HeldSeat>} */
export function heldSeats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "{}");
  } catch {
    return {};
  }
}

/** @param {string} matchId @returns {HeldSeat | undefined} */
export const heldSeat = (matchId) => heldSeats()[matchId];

/** @param {string} matchId @param {HeldSeat} seat */
export function keepSeat(matchId, seat) {
  localStorage.setItem(KEY, JSON.stringify({ ...heldSeats(), [matchId]: seat }));
}

/** @param {string} matchId */
export function forgetSeat(matchId) {
  const seats = heldSeats();
  delete seats[matchId];
  localStorage.setItem(KEY, JSON.stringify(seats));
}
