// @ts-check
/**
 * The texts of the puzzles page (puzzles/page.js), in each language of the page by its code, added to the page's
 * languages (i18n.js LANGUAGES) when this module is loaded: no other screen loads them.
 */

import { LANGUAGES } from "../i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const PUZZLE_TEXTS = {
  en: {
    pz_title: "Puzzle", pz_goal: "Only you and one opponent still hold cards, so you can see every card: find the one move that goes out first, whatever they do.",
    pz_you: "Your cards (seat {seat})", pz_them: "Opponent's cards (seat {seat}, {n} cards)",
    pz_table: "On the table: {cards} (seat {seat})", pz_lead: "You lead: the table is empty.",
    pz_play: "Play selected", pz_pass: "Pass", pz_next: "Next puzzle",
    pz_correct: "Correct.", pz_reply: "Opponent: {move}.", pz_solved: "Solved!", pz_wrong: "Not this one: the winning move was {move}.",
    pz_pass_word: "pass", pz_rating: "Puzzle rating {rating}", pz_your_rating: "Your puzzle rating: {rating}",
    pz_log_you: "You: {move}", pz_log_them: "Opponent: {move}", pz_sign_in: "Sign in to keep a puzzle rating.",
    pz_pick: "Choose cards to play first.",
  },
  vi: {
    pz_title: "Câu đố", pz_goal: "Chỉ còn bạn và một đối thủ giữ bài, nên bạn thấy mọi lá: hãy tìm nước duy nhất để về nhất, dù đối thủ đánh thế nào.",
    pz_you: "Bài của bạn (ghế {seat})", pz_them: "Bài của đối thủ (ghế {seat}, {n} lá)",
    pz_table: "Trên bàn: {cards} (ghế {seat})", pz_lead: "Bạn đánh trước: bàn trống.",
    pz_play: "Đánh các lá đã chọn", pz_pass: "Bỏ lượt", pz_next: "Câu đố khác",
    pz_correct: "Đúng.", pz_reply: "Đối thủ: {move}.", pz_solved: "Đã giải!", pz_wrong: "Chưa đúng: nước thắng là {move}.",
    pz_pass_word: "bỏ lượt", pz_rating: "Điểm câu đố {rating}", pz_your_rating: "Điểm câu đố của bạn: {rating}",
    pz_log_you: "Bạn: {move}", pz_log_them: "Đối thủ: {move}", pz_sign_in: "Đăng nhập để giữ điểm câu đố.",
    pz_pick: "Hãy chọn lá bài trước.",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, PUZZLE_TEXTS[lang.code] ?? {});
