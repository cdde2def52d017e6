// @ts-check
/**
 * The texts of a finished match's replay (replay.js) and its review (review.js), in each language of the page by its
 * code, added to the page's languages (i18n.js LANGUAGES) when this module is loaded: the table never loads them.
 */

import { LANGUAGES } from "./i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const REPLAY_TEXTS = {
  en: {
    replay_title: "Replay: {names}", replay_controls: "Replay", prev_hand: "Previous hand", prev: "Previous",
    replay_at: "Hand {hand} of {hands}, move {step} of {steps}", replay_empty: "No hand was played.",
    last_play: "Last play, by {name}:", replay_keys: "The arrow keys ← → step too.",
    replay_not_finished: "The replay opens once the match is over.",
    review_button: "Review the moves", review_pending: "Reviewing… {done} of {total} moves",
    review_good: "Good move", review_inaccuracy: "Inaccuracy", review_mistake: "Mistake", review_blunder: "Blunder",
    review_forced: "Only move", review_better: "Better:", review_pass: "pass",
    review_chance: "First-place chance over hand {n}, as the review estimated it at each move",
    review_chance_of: "{name}: {from} at first, {to} at the end",
  },
  vi: {
    replay_title: "Xem lại: {names}", replay_controls: "Xem lại", prev_hand: "Ván trước", prev: "Lùi",
    replay_at: "Ván {hand}/{hands}, nước {step}/{steps}", replay_empty: "Không có ván nào.",
    last_play: "Bài đánh gần nhất, của {name}:", replay_keys: "Phím mũi tên ← → cũng dùng được.",
    replay_not_finished: "Chỉ xem lại được khi trận đấu đã kết thúc.",
    review_button: "Phân tích các nước đi", review_pending: "Đang phân tích… {done} trên {total} nước",
    review_good: "Nước đi tốt", review_inaccuracy: "Chưa chính xác", review_mistake: "Sai lầm",
    review_blunder: "Sai lầm nghiêm trọng", review_forced: "Nước duy nhất", review_better: "Tốt hơn:", review_pass: "bỏ lượt",
    review_chance: "Khả năng về nhất trong ván {n}, theo ước tính của phần phân tích ở mỗi nước",
    review_chance_of: "{name}: lúc đầu {from}, lúc cuối {to}",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, REPLAY_TEXTS[lang.code] ?? {});
