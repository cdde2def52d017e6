// @ts-check
/**
 * The table's own words of watching: a seat out of its hand (table/skip.js) and the link to watch a match (the join
 * page, table/join.js), in each language, added to the page's languages when this module is loaded. The rest of the
 * words of watching and talking load with the parts that show them (social/words.js).
 */

import { LANGUAGES } from "../i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const TABLE_WATCH_TEXTS = {
  en: {
    skip_hand: "Skip to the hand's end",
    out_quicker: "You are out: the other seats' plays come quicker.",
    out_skipping: "The rest of the hand is shown at once.",
    watch_match: "Watch this match",
  },
  vi: {
    skip_hand: "Bỏ qua đến cuối ván",
    out_quicker: "Bạn đã hết bài: các lượt đánh còn lại sẽ nhanh hơn.",
    out_skipping: "Phần còn lại của ván được hiện ngay.",
    watch_match: "Xem ván này",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, TABLE_WATCH_TEXTS[lang.code] ?? {});
