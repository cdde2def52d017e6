// @ts-check
/**
 * The texts of a finished match's review on its replay (replay.js's button, review.js), in each language of the page
 * by its code, added to the page's languages (i18n.js LANGUAGES) when this module is loaded: the table never loads
 * them.
 */

import { LANGUAGES } from "./i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const REVIEW_TEXTS = {
  en: {
    review_button: "Review the moves", review_pending: "Reviewing… {done} of {total} moves",
    review_good: "Good move", review_inaccuracy: "Inaccuracy", review_mistake: "Mistake", review_blunder: "Blunder",
    review_forced: "Only move", review_better: "Better:", review_pass: "pass",
  },
  vi: {
    review_button: "Phân tích các nước đi", review_pending: "Đang phân tích… {done} trên {total} nước",
    review_good: "Nước đi tốt", review_inaccuracy: "Chưa chính xác", review_mistake: "Sai lầm",
    review_blunder: "Sai lầm nghiêm trọng", review_forced: "Nước duy nhất", review_better: "Tốt hơn:", review_pass: "bỏ lượt",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, REVIEW_TEXTS[lang.code] ?? {});
