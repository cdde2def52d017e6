// @ts-check
/**
 * The first lesson's words (/learn), in each language of the page by its code, added to the page's languages (i18n.js
 * LANGUAGES) when this module is loaded: only the lesson loads them. Each step's words are keyed by the step's `id`
 * (`step_<id>`, `how_<id>`, `done_<id>`) and its goal's key (`goal_<key>`), the engine's refusals by their reason
 * (`why_<reason>`), all as GET /v1/lessons/first names them.
 */

import { LANGUAGES } from "../i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const LESSON_TEXTS = {
  en: {
    lesson_title: "First lesson", lesson_step: "Step {n} of {of}", lesson_table: "On the table:",
    lesson_lead: "The table is empty: you lead.", lesson_locked: "You already passed in this battle.",
    lesson_start_card: "First hand: the first play must hold {card}, the lowest card dealt.",
    lesson_hand: "Your cards", lesson_play: "Play", lesson_pass: "Pass", lesson_next: "Next step",
    lesson_finish: "Finish", lesson_pick: "Pick one or more cards first, then Play.",
    lesson_not_goal: "The rules allow that, but it is not what this step asks. Try again.",
    lesson_done_title: "You know the basics!", lesson_quick: "Play a Quick game",
    lesson_done_about: "One hand against three bots: every rule you just tried, at a real table.",
    lesson_unavailable: "The lesson could not be loaded: {message}", lesson_again: "Start the lesson again",
    step_lead_single: "Lead a single",
    how_lead_single: "The table is empty, so you lead: any combination will do. The simplest is one card, a single. "
      + "Ranks go 3 (lowest), 4 … 10, J, Q, K, A, 2 (highest); at equal rank ♠ < ♣ < ♦ < ♥.",
    goal_lead_a_single: "Play one card.",
    done_lead_single: "Right: a single. Each player after you must now beat it with a higher single, or pass.",
    step_beat_single: "Beat it",
    how_beat_single: "A 7♥ was led. To beat a single, play a higher single.",
    goal_beat_the_single: "Play one card higher than the 7♥.",
    done_beat_single: "Right: a higher card of the same kind beats the table.",
    step_pair: "A pair",
    how_pair: "A pair is two cards of the same rank. A pair of 8s is on the table: only a higher pair beats it.",
    goal_beat_the_pair: "Play a pair higher than the 8s.",
    done_pair: "Right: same kind, same number of cards, higher. The highest card of each pair decides.",
    step_straight: "A straight",
    how_straight: "A straight is three or more cards of consecutive ranks, in any suits (a 2 is never in one). "
      + "You lead again.",
    goal_lead_a_straight: "Play a straight of three cards or more.",
    done_straight: "Right: a straight. It is beaten only by a higher straight of the same length.",
    step_pass_lock: "Passing locks you out",
    how_pass_lock: "You passed earlier in this battle; now a 9♠ is on the table and you hold higher cards. "
      + "Try one of them: a player who passed is out of the battle until it is won.",
    goal_pass_when_locked: "Pass.",
    done_pass_lock: "Right: once you pass, you are out of this battle; when everyone else has passed, the last "
      + "player to play leads a new one. Only a bomb on a 2 lets you back in.",
    step_bomb: "A bomb on a 2",
    how_bomb: "A 2 is the highest card, but a bomb beats it: four of a kind, or three pairs in a row.",
    goal_bomb_the_two: "Bomb the 2♠.",
    done_bomb: "Right: four of a kind bombs a single 2.",
    step_start_card: "The start card",
    how_start_card: "In the first hand, the player holding the lowest card dealt leads, and that first play must "
      + "include it. Here it is your 3♠.",
    goal_lead_with_the_start_card: "Lead a play that holds the 3♠.",
    done_start_card: "Right: the 3♠ on its own or in a combination (a pair of 3s also does).",
    why_does_not_beat: "That does not beat the table: play the same kind with the same number of cards, higher "
      + "(or a bomb on a 2).",
    why_not_a_combination: "Those cards are not a combination: a single, a pair, a triple, four of a kind, a straight "
      + "(3+ ranks in a row) or pairs in a row.",
    why_locked_bomb_only: "You passed in this battle, so you are locked out of it: only a bomb on a 2 could bring you "
      + "back.",
    why_must_include_start_card: "The first play of the first hand must include the lowest card dealt.",
    why_cannot_pass_on_lead: "The table is empty: the leader must play, not pass.",
    why_cards_not_in_hand: "Those cards are not in your hand.",
    why_unknown_card: "That card could not be read.", why_duplicate_cards: "A card was picked twice.",
  },
  vi: {
    lesson_title: "Bài học đầu tiên", lesson_step: "Bước {n}/{of}", lesson_table: "Trên bàn:",
    lesson_lead: "Bàn trống: bạn đánh trước.", lesson_locked: "Bạn đã bỏ lượt trong vòng này.",
    lesson_start_card: "Ván đầu: nước đầu tiên phải có {card}, lá nhỏ nhất được chia.",
    lesson_hand: "Bài của bạn", lesson_play: "Đánh", lesson_pass: "Bỏ lượt", lesson_next: "Bước tiếp",
    lesson_finish: "Hoàn thành", lesson_pick: "Hãy chọn một hay nhiều lá trước, rồi bấm Đánh.",
    lesson_not_goal: "Luật cho phép nước đó, nhưng bước này yêu cầu khác. Thử lại nhé.",
    lesson_done_title: "Bạn đã biết những điều cơ bản!", lesson_quick: "Chơi một ván nhanh",
    lesson_done_about: "Một ván với ba máy: mọi luật bạn vừa thử, ở một bàn thật.",
    lesson_unavailable: "Không tải được bài học: {message}", lesson_again: "Học lại từ đầu",
    step_lead_single: "Đánh một lá lẻ",
    how_lead_single: "Bàn trống nên bạn đánh trước: bộ nào cũng được. Đơn giản nhất là một lá, gọi là lá lẻ. "
      + "Thứ tự: 3 (nhỏ nhất), 4 … 10, J, Q, K, A, 2 (lớn nhất); cùng số thì ♠ < ♣ < ♦ < ♥.",
    goal_lead_a_single: "Đánh một lá.",
    done_lead_single: "Đúng: một lá lẻ. Người sau bạn phải chặn bằng lá lớn hơn, hoặc bỏ lượt.",
    step_beat_single: "Chặn lá đó",
    how_beat_single: "Có người đánh 7♥. Muốn chặn một lá lẻ, hãy đánh một lá lớn hơn.",
    goal_beat_the_single: "Đánh một lá lớn hơn 7♥.",
    done_beat_single: "Đúng: cùng loại mà lớn hơn thì chặn được.",
    step_pair: "Đôi",
    how_pair: "Đôi là hai lá cùng số. Trên bàn là đôi 8: chỉ đôi lớn hơn mới chặn được.",
    goal_beat_the_pair: "Đánh một đôi lớn hơn đôi 8.",
    done_pair: "Đúng: cùng loại, cùng số lá, lớn hơn. Lá lớn nhất của mỗi đôi quyết định.",
    step_straight: "Sảnh",
    how_straight: "Sảnh là ba lá trở lên có số liên tiếp, chất nào cũng được (không bao giờ có lá 2). "
      + "Bạn lại đánh trước.",
    goal_lead_a_straight: "Đánh một sảnh từ ba lá trở lên.",
    done_straight: "Đúng: một sảnh. Chỉ sảnh lớn hơn cùng độ dài mới chặn được.",
    step_pass_lock: "Bỏ lượt là mất vòng",
    how_pass_lock: "Bạn đã bỏ lượt trước đó trong vòng này; giờ trên bàn là 9♠ và bạn có lá lớn hơn. "
      + "Thử đánh xem: ai đã bỏ lượt thì ra khỏi vòng cho đến khi vòng kết thúc.",
    goal_pass_when_locked: "Bỏ lượt.",
    done_pass_lock: "Đúng: đã bỏ lượt thì bạn ra khỏi vòng này; khi mọi người khác bỏ lượt, người đánh cuối cùng "
      + "mở vòng mới. Chỉ có chặt heo mới cho bạn vào lại.",
    step_bomb: "Chặt heo",
    how_bomb: "Lá 2 (heo) lớn nhất, nhưng có thể chặt: bằng tứ quý, hoặc ba đôi thông.",
    goal_bomb_the_two: "Chặt con 2♠.",
    done_bomb: "Đúng: tứ quý chặt được một con heo.",
    step_start_card: "Lá mở đầu",
    how_start_card: "Ở ván đầu, ai giữ lá nhỏ nhất được chia thì đánh trước, và nước đầu tiên phải có lá đó. "
      + "Ở đây là lá 3♠ của bạn.",
    goal_lead_with_the_start_card: "Đánh một nước có lá 3♠.",
    done_start_card: "Đúng: lá 3♠ đánh riêng hay trong một bộ (đôi 3 cũng được).",
    why_does_not_beat: "Nước đó không chặn được bàn: đánh cùng loại, cùng số lá, lớn hơn (hoặc chặt heo).",
    why_not_a_combination: "Các lá đó không thành bộ: lá lẻ, đôi, sám, tứ quý, sảnh (3 số liên tiếp trở lên) "
      + "hoặc đôi thông.",
    why_locked_bomb_only: "Bạn đã bỏ lượt trong vòng này nên không được đánh nữa: chỉ có chặt heo mới cho bạn "
      + "vào lại.",
    why_must_include_start_card: "Nước đầu tiên của ván đầu phải có lá nhỏ nhất được chia.",
    why_cannot_pass_on_lead: "Bàn trống: người đánh trước phải đánh, không được bỏ lượt.",
    why_cards_not_in_hand: "Các lá đó không có trong bài của bạn.",
    why_unknown_card: "Không đọc được lá bài đó.", why_duplicate_cards: "Một lá được chọn hai lần.",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, LESSON_TEXTS[lang.code] ?? {});
