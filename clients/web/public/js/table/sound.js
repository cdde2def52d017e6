// @ts-check
/** Optional sounds of the table (off until the player turns them on; kept in localStorage): short WebAudio beeps. */

const KEY = "tienlen.sound";

/** Whether the table makes sounds. */
export const soundOn = () => localStorage.getItem(KEY) === "on";
/** @param {boolean} on */
export const setSound = (on) => localStorage.setItem(KEY, on ? "on" : "off");

/** @type {AudioContext | null} */
let audio = null;

/**
 * A beep of each frequency in turn (Hz), `ms` long each; nothing when sounds are off or the browser has no WebAudio.
 * @param {number[]} tones @param {number} [ms]
 */
export function beep(tones, ms = 90) {
  if (!soundOn() || typeof AudioContext === "undefined") return;
  audio ??= new AudioContext();
  const start = audio.currentTime;
  tones.forEach((hz, i) => {
    const ctx = /** @type {AudioContext} */ (audio);
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.frequency.value = hz;
    const at = start + (i * ms) / 1000;
    gain.gain.setValueAtTime(0.08, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + ms / 1000);
    tone.connect(gain).connect(ctx.destination);
    tone.start(at);
    tone.stop(at + ms / 1000);
  });
}

/** Your turn: two rising notes. */
export const yourTurnSound = () => beep([660, 880], 110);
/** A play on the table: one short click. */
export const playSound = () => beep([440], 50);
