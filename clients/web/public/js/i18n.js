// @ts-check
/** Every text of the page: one table per language, switchable; the choice is kept in localStorage. */

/** @type {Record<string, Record<string, string>>} */
export const TEXTS = {
  en: {
    title: "Tiến Lên", language: "Language", home: "Lobby",
    // the lobby
    create: "New match", your_name: "Your name", players: "Players", seat: "Seat {n}",
    open_seat: "open (a friend joins)", bot_easy: "bot: easy", bot_medium: "bot: medium", bot_hard: "bot: hard",
    preset: "Rules", preset_standard: "standard", preset_classic: "classic", preset_ladder: "ladder",
    hands: "Hands", scoring: "Scoring", scoring_places: "points by place", scoring_wins: "wins only",
    scoring_none: "none (one hand)", clock: "Seconds per turn (0: no clock)",
    timeouts: "Timeouts before a bot takes over", listed: "List in the lobby while a seat is open",
    start: "Create", open_matches: "Open matches", none: "None.", join: "Join", join_link: "Join by link",
    link_or_id: "Match link or id", go: "Open", your_matches: "Your matches", resume: "Resume {id}",
    forget: "Forget", bot_name: "Bot {n}", refresh: "Refresh", default_name: "Player",
    // the table
    waiting: "Waiting for players. Share this link:", play: "Play", pass: "Pass", hint: "Hint", leave: "Leave",
    rematch: "Rematch", your_turn: "Your turn", turn_of: "{name}'s turn", table_empty: "The table is empty.",
    table_by: "{name} played {what}:", cards_left: "{n} cards left", card_left: "1 card left",
    passed_mark: "passed", place: "place {n}", left_mark: "left", taken_over: "a bot plays",
    score: "score {n}", you: "you", your_hand: "Your hand", seats_label: "Seats", table_label: "Table",
    actions_label: "Actions", log: "What happened", results: "Results", scores: "Scores", hand_col: "Hand",
    total: "Total", clock_left: "{s} s left", hand_no: "Hand {n}", showing: "…",
    // the live line
    pick: "Pick cards to play.", not_turn: "Wait for your turn.", beats: "{what}, beats the table",
    leads: "{what}, you may lead with it", bombs: "{what}, bombs the table", no_beat: "{what} does not beat {table}",
    wait_turn: "{what}, wait for your turn", must_include: "must include {card}", not_combo: "not a combination",
    need_pair: "a pair needs two cards of one rank", need_run: "a run needs 3 cards in a row",
    run_gap: "the cards of a run must be in a row", no_two_run: "a run cannot hold a 2",
    reentry: "you passed this round: only a bomb may play", not_allowed: "{what} may not be played now",
    // combinations
    single: "{c}", pair: "pair of {rs}", triple: "three {rs}", four_of_a_kind: "four {rs}",
    straight: "run {lo}–{hi}", consecutive_pairs: "{n} pairs in a row {lo}–{hi}", bomb: "{what} (bomb!)",
    // events
    ev_played: "{name} played {what}", ev_passed: "{name} passed", ev_cleared: "New round: {name} to lead",
    ev_out: "{name} went out: place {n}", ev_started: "Hand {n} starts", ev_timed_out: "{name} ran out of time",
    ev_left: "{name} left", ev_taken: "a bot ({bot}) plays for {name}", ev_joined: "{name} joined",
    ev_hand_ended: "Hand {n} is over: {places}", ev_ended: "The match is over.", ev_won: "Winner of the match: {name}!",
    ev_abandoned: "The match was abandoned.", ev_cancelled: "The match was cancelled.",
    ev_rematch: "A rematch is ready.", winner: "Winner of the match: {name}!", no_winner: "The match ended with no winner.",
    hint_pass: "Hint: pass. {why}", hint_play: "Hint: {what}. {why}",
    // cards
    S: "spades", C: "clubs", D: "diamonds", H: "hearts", card: "{rank} of {suit}",
    r3: "3", r4: "4", r5: "5", r6: "6", r7: "7", r8: "8", r9: "9", r10: "10", rJ: "jack", rQ: "queen", rK: "king",
    rA: "ace", r2: "2",
    p3: "3s", p4: "4s", p5: "5s", p6: "6s", p7: "7s", p8: "8s", p9: "9s", p10: "10s", pJ: "jacks", pQ: "queens",
    pK: "kings", pA: "aces", p2: "2s",
    not_found: "No such match.",
  },
  vi: {
    title: "Tiến Lên", language: "Ngôn ngữ", home: "Sảnh",
    create: "Ván mới", your_name: "Tên bạn", players: "Số người", seat: "Ghế {n}",
    open_seat: "để trống (bạn bè vào)", bot_easy: "máy: dễ", bot_medium: "máy: vừa", bot_hard: "máy: khó",
    preset: "Luật", preset_standard: "chuẩn", preset_classic: "cổ điển", preset_ladder: "bậc thang",
    hands: "Số ván", scoring: "Tính điểm", scoring_places: "điểm theo hạng", scoring_wins: "chỉ tính ván thắng",
    scoring_none: "không (một ván)", clock: "Giây mỗi lượt (0: không tính giờ)",
    timeouts: "Số lần hết giờ trước khi máy chơi thay", listed: "Hiện trong sảnh khi còn ghế trống",
    start: "Tạo", open_matches: "Bàn đang chờ", none: "Không có.", join: "Vào", join_link: "Vào bằng liên kết",
    link_or_id: "Liên kết hoặc mã bàn", go: "Mở", your_matches: "Bàn của bạn", resume: "Chơi tiếp {id}",
    forget: "Bỏ", bot_name: "Máy {n}", refresh: "Tải lại", default_name: "Người chơi",
    waiting: "Đang chờ người chơi. Gửi liên kết này:", play: "Đánh", pass: "Bỏ lượt", hint: "Gợi ý", leave: "Rời bàn",
    rematch: "Chơi lại", your_turn: "Lượt của bạn", turn_of: "Lượt của {name}", table_empty: "Bàn trống.",
    table_by: "{name} đã đánh {what}:", cards_left: "còn {n} lá", card_left: "còn 1 lá",
    passed_mark: "đã bỏ", place: "hạng {n}", left_mark: "đã rời", taken_over: "máy chơi thay",
    score: "điểm {n}", you: "bạn", your_hand: "Bài của bạn", seats_label: "Các ghế", table_label: "Bàn",
    actions_label: "Thao tác", log: "Diễn biến", results: "Kết quả", scores: "Bảng điểm", hand_col: "Ván",
    total: "Tổng", clock_left: "còn {s} giây", hand_no: "Ván {n}", showing: "…",
    pick: "Chọn bài để đánh.", not_turn: "Chờ đến lượt bạn.", beats: "{what}, đè được bài trên bàn",
    leads: "{what}, được đánh ra", bombs: "{what}, chặt bài trên bàn", no_beat: "{what} không đè được {table}",
    wait_turn: "{what}, chờ đến lượt bạn", must_include: "phải có {card}", not_combo: "không thành bộ",
    need_pair: "đôi phải là hai lá cùng số", need_run: "sảnh cần 3 lá liên tiếp",
    run_gap: "các lá của sảnh phải liên tiếp", no_two_run: "sảnh không được có heo",
    reentry: "bạn đã bỏ vòng này: chỉ được chặt", not_allowed: "chưa được đánh {what}",
    single: "{c}", pair: "đôi {r}", triple: "sám cô {r}", four_of_a_kind: "tứ quý {r}",
    straight: "sảnh {lo}–{hi}", consecutive_pairs: "{n} đôi thông {lo}–{hi}", bomb: "{what} (chặt!)",
    ev_played: "{name} đánh {what}", ev_passed: "{name} bỏ lượt", ev_cleared: "{name} đánh vòng mới",
    ev_out: "{name} hết bài: hạng {n}", ev_started: "Bắt đầu ván {n}", ev_timed_out: "{name} hết giờ",
    ev_left: "{name} rời bàn", ev_taken: "máy ({bot}) chơi thay {name}", ev_joined: "{name} vào bàn",
    ev_hand_ended: "Hết ván {n}: {places}", ev_ended: "Trận đấu kết thúc.", ev_won: "Thắng cả trận: {name}!",
    ev_abandoned: "Trận đấu bị bỏ dở.", ev_cancelled: "Trận đấu đã bị huỷ.",
    ev_rematch: "Đã có ván chơi lại.", winner: "Thắng cả trận: {name}!", no_winner: "Trận đấu kết thúc, không ai thắng.",
    hint_pass: "Gợi ý: bỏ lượt. {why}", hint_play: "Gợi ý: {what}. {why}",
    S: "bích", C: "chuồn", D: "rô", H: "cơ", card: "{rank} {suit}",
    r3: "3", r4: "4", r5: "5", r6: "6", r7: "7", r8: "8", r9: "9", r10: "10", rJ: "J", rQ: "Q", rK: "K",
    rA: "át", r2: "heo",
    p3: "3", p4: "4", p5: "5", p6: "6", p7: "7", p8: "8", p9: "9", p10: "10", pJ: "J", pQ: "Q", pK: "K",
    pA: "át", p2: "heo",
    not_found: "Không có bàn này.",
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
  document.title = t("title");
}

/**
 * The text of `key` in the language in use, with `{name}` placeholders filled.
 * @param {string} key @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const text = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}
