// @ts-check
/** Every text of the page: one table per language, switchable; the choice is kept in localStorage. */

/** @type {Record<string, Record<string, string>>} */
export const TEXTS = {
  en: {
    language: "Language", create: "New match", your_name: "Your name", players: "Players", seat: "Seat {n}",
    open_seat: "open (a friend joins)", bot_easy: "bot: easy", bot_medium: "bot: medium", bot_hard: "bot: hard",
    hands: "Hands", clock: "Seconds per turn (0: no clock)", listed: "List in the lobby", start: "Create",
    open_matches: "Open matches", none: "None.", join: "Join", your_matches: "Your matches", resume: "Resume",
    waiting: "Waiting for players. Share this link:", play: "Play", pass: "Pass", hint: "Hint", leave: "Leave",
    rematch: "Rematch", your_turn: "Your turn", turn_of: "{name}'s turn", table_empty: "The table is empty: lead.",
    table_by: "{name} played:", cards_left: "{n} cards", passed_mark: "passed", place: "place {n}",
    score: "score {n}", pick: "Pick cards to play.", not_turn: "Wait for your turn.", beats: "{what}: beats the table",
    leads: "{what}: you may lead with it", bombs: "{what}: bombs the table", no_beat: "{what}: does not beat the table",
    must_include: "must include {card}", not_combo: "not a combination", need_pair: "a pair needs two cards of one rank",
    need_run: "a run needs 3 or more cards in a row", no_two_run: "a run cannot include a 2",
    reentry: "you passed: only a bomb on a 2", hand_result: "Hand {n}: {places}", winner: "{name} wins the match!",
    ev_played: "{name} played {what}", ev_passed: "{name} passed", ev_cleared: "{name} leads a new round",
    ev_out: "{name} is out: place {n}", ev_started: "Hand {n} starts", ev_timed_out: "{name} ran out of time",
    ev_left: "{name} left", ev_taken: "a bot plays for {name}", ev_joined: "{name} joined", ev_ended: "The match ended",
    hint_pass: "Hint: pass. {why}", hint_play: "Hint: {what}. {why}", you: "you", log: "What happened",
    results: "Results", clock_left: "{s} s", preset: "Rules",
    single: "single {r}", pair: "pair of {r}", triple: "triple {r}", four_of_a_kind: "four {r}",
    straight: "straight {lo}–{hi}", consecutive_pairs: "{n} pairs in a row {lo}–{hi}",
    S: "spades", C: "clubs", D: "diamonds", H: "hearts", card: "{rank} of {suit}",
    r3: "3", r4: "4", r5: "5", r6: "6", r7: "7", r8: "8", r9: "9", r10: "10", rJ: "jack", rQ: "queen", rK: "king",
    rA: "ace", r2: "2", not_found: "No such match.",
  },
  vi: {
    language: "Ngôn ngữ", create: "Ván mới", your_name: "Tên bạn", players: "Số người", seat: "Ghế {n}",
    open_seat: "để trống (bạn bè vào)", bot_easy: "máy: dễ", bot_medium: "máy: vừa", bot_hard: "máy: khó",
    hands: "Số ván", clock: "Giây mỗi lượt (0: không tính giờ)", listed: "Hiện trong sảnh", start: "Tạo",
    open_matches: "Bàn đang chờ", none: "Không có.", join: "Vào", your_matches: "Bàn của bạn", resume: "Chơi tiếp",
    waiting: "Đang chờ người chơi. Gửi liên kết này:", play: "Đánh", pass: "Bỏ lượt", hint: "Gợi ý", leave: "Rời bàn",
    rematch: "Chơi lại", your_turn: "Lượt của bạn", turn_of: "Lượt của {name}", table_empty: "Bàn trống: bạn đánh trước.",
    table_by: "{name} đã đánh:", cards_left: "{n} lá", passed_mark: "đã bỏ", place: "hạng {n}",
    score: "điểm {n}", pick: "Chọn bài để đánh.", not_turn: "Chờ đến lượt bạn.", beats: "{what}: chặt được bài trên bàn",
    leads: "{what}: được đánh trước", bombs: "{what}: chặt bài trên bàn", no_beat: "{what}: không chặt được bài trên bàn",
    must_include: "phải có {card}", not_combo: "không thành bộ", need_pair: "đôi phải cùng số",
    need_run: "sảnh cần từ 3 lá liên tiếp", no_two_run: "sảnh không được có heo",
    reentry: "bạn đã bỏ lượt: chỉ được chặt heo", hand_result: "Ván {n}: {places}", winner: "{name} thắng cả trận!",
    ev_played: "{name} đánh {what}", ev_passed: "{name} bỏ lượt", ev_cleared: "{name} đánh vòng mới",
    ev_out: "{name} hết bài: hạng {n}", ev_started: "Bắt đầu ván {n}", ev_timed_out: "{name} hết giờ",
    ev_left: "{name} rời bàn", ev_taken: "máy chơi thay {name}", ev_joined: "{name} vào bàn", ev_ended: "Trận đấu kết thúc",
    hint_pass: "Gợi ý: bỏ lượt. {why}", hint_play: "Gợi ý: {what}. {why}", you: "bạn", log: "Diễn biến",
    results: "Kết quả", clock_left: "{s} giây", preset: "Luật",
    single: "lẻ {r}", pair: "đôi {r}", triple: "sám cô {r}", four_of_a_kind: "tứ quý {r}",
    straight: "sảnh {lo}–{hi}", consecutive_pairs: "{n} đôi thông {lo}–{hi}",
    S: "bích", C: "chuồn", D: "rô", H: "cơ", card: "{rank} {suit}",
    r3: "3", r4: "4", r5: "5", r6: "6", r7: "7", r8: "8", r9: "9", r10: "10", rJ: "J", rQ: "Q", rK: "K",
    rA: "át", r2: "heo", not_found: "Không có bàn này.",
  },
};

let current = localStorage.getItem("tienlen.lang") === "vi" ? "vi" : "en";

/** The language in use. */
export const language = () => current;

/** @param {string} lang */
export function setLanguage(lang) {
  current = lang in TEXTS ? lang : "en";
  localStorage.setItem("tienlen.lang", current);
  document.documentElement.lang = current;
}

/**
 * The text of `key` in the language in use, with `{name}` placeholders filled.
 * @param {string} key @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const text = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}
