// @ts-check
/**
 * Every text of the page, in each of its languages, switchable; the choice is kept in localStorage.
 *
 * LANGUAGES is the one list of the page's languages: the language menu is built from it and a saved choice is
 * checked against it, so a new language is one more entry here (its code, its own name, its texts) and nothing else.
 */

/**
 * @typedef {object} Language
 * @property {string} code its BCP 47 code: the value kept in localStorage and the page's `lang`
 * @property {string} name its name in itself, as the language menu offers it
 * @property {Record<string, string>} texts every text of the page in it, by key (a key it lacks is shown in English)
 */

/** @type {Language[]} the page's languages; the first, English, is the fallback for a text or a choice it lacks */
export const LANGUAGES = [{
  code: "en", name: "English", texts: {
    title: "Tiến Lên", language: "Language", home: "Lobby",
    // the lobby
    create: "New match", your_name: "Your name", players: "Players", seat: "Seat {n}",
    open_seat: "open (a friend joins)", bot_easy: "bot: easy", bot_medium: "bot: medium", bot_hard: "bot: hard",
    bot_expert: "bot: expert", level_expert: "Expert", bot_master: "bot: master", level_master: "Master",
    preset: "Rules", preset_standard: "standard", preset_classic: "classic", preset_ladder: "ladder",
    clock: "Seconds per turn (0: no clock)",
    timeouts: "Timeouts before a bot takes over", listed: "List in the lobby while a seat is open",
    takeover: "Bot that takes over a seat that left or ran out of time", more_rules: "More rules",
    rules_unavailable: "The rules could not be loaded: {message}",
    // the rule parameters of GET /v1/rules, their values and what each value means
    rule_hands: "Hands", rule_scoring: "Scoring", rule_bombs: "Bombs", rule_tiebreak: "Tie-break",
    rule_start_card_rule: "The first lead must include the lowest card dealt",
    rule_end_on_first_out: "A hand ends when the first player goes out",
    rule_pass_reentry_with_bomb: "A player who passed may still bomb a 2",
    scoring_places: "points by place", scoring_wins: "wins only", scoring_none: "none (one hand)",
    scoring_places_about: "first of n players scores n-1, then n-2, …, last 0",
    scoring_wins_about: "1 point for first place, 0 otherwise",
    scoring_none_about: "no points: the first place of the single hand wins",
    bombs_exact: "exact", bombs_classic: "classic", bombs_ladder: "ladder", bombs_off: "no bombs",
    bombs_exact_about: "each bomb beats one table: four of a kind or 3 pairs in a row a single 2, 4 pairs two 2s, 5 pairs three 2s",
    bombs_classic_about: "four of a kind or 3 pairs in a row beat a single 2; 4 pairs beat a single 2 or two 2s",
    bombs_ladder_about: "bombs also beat bombs: four of a kind beats 3 pairs, 4 or more pairs beat four of a kind and shorter runs of pairs",
    bombs_off_about: "no bombs: a play is beaten only by a higher play of its kind and length",
    tiebreak_best_finish: "one more hand", tiebreak_until_clear: "until one leads",
    tiebreak_best_finish_about: "one more hand; of the tied players, the one who finishes it best wins",
    tiebreak_until_clear_about: "more hands until one player leads alone (a shared win after 10)",
    start: "Create", open_matches: "Open matches", none: "None.", join: "Join", join_link: "Join by link",
    link_or_id: "Match link or id", go: "Open", your_matches: "Your matches", resume: "Resume {id}",
    forget: "Forget", bot_name: "Bot {n}", refresh: "Refresh", default_name: "Player",
    // the table
    waiting: "Waiting for players. Share this link:", play: "Play", pass: "Pass", hint: "Hint", leave: "Leave",
    leave_question: "Leave the match?", leave_yes: "Yes, leave", leave_no: "No, stay",
    rematch: "Rematch", your_turn: "Your turn", turn_of: "{name}'s turn", table_empty: "The table is empty.",
    table_by: "{name} played {what}:", cards_left: "{n} cards left", card_left: "1 card left",
    passed_mark: "passed", place: "place {n}", left_mark: "left", taken_over: "a bot plays",
    score: "score {n}", you: "you", your_hand: "Your hand", seats_label: "Seats", table_label: "Table",
    actions_label: "Actions", log: "What happened", results: "Results", scores: "Scores", hand_col: "Hand",
    total: "Total", clock_left: "{s} s left", hand_no: "Hand {n}", showing: "…",
    felt_waiting: "Waiting for players…", felt_hand_over: "Hand {n} is over.", felt_over: "The match is over.",
    felt_lead: "The table is empty: {name} to lead.",
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
    // the hint's explanation, written from its explanation_code: a template, then a reason, then a full stop
    hx_lead: "Leads {play}", hx_lead_lowest: "Leads your lowest {play}", hx_beat: "Beats {table} with {play}",
    hx_bomb: "Bombs {table} with {play}", hx_go_out: "Plays {play}, your last cards: you go out",
    hx_pass_cannot_beat: "Nothing you hold beats {table}", hx_pass_keep: "Passes on {table} to keep your {kept} for later",
    hx_pass_save: "Passes on {table}: beating it would break up your hand or waste high cards",
    hr_none: "", hr_keeps_together: ", keeps {kept} together", hr_keeps_twos: ", keeps your 2s for later",
    hr_nearly_out: ": {danger}", hr_single_cannot_stop: " so a single cannot stop you: {danger}",
    hr_take_lead_back: " to take the lead back", hr_win_lead: " to win the lead", hx_end: ".",
    danger: "{name} is nearly out ({n} cards left)", danger_one: "{name} is nearly out (1 card left)",
    // cards
    S: "spades", C: "clubs", D: "diamonds", H: "hearts", card: "{rank} of {suit}",
    r3: "3", r4: "4", r5: "5", r6: "6", r7: "7", r8: "8", r9: "9", r10: "10", rJ: "jack", rQ: "queen", rK: "king",
    rA: "ace", r2: "2",
    p3: "3s", p4: "4s", p5: "5s", p6: "6s", p7: "7s", p8: "8s", p9: "9s", p10: "10s", pJ: "jacks", pQ: "queens",
    pK: "kings", pA: "aces", p2: "2s",
    not_found: "No such match.",
    // accounts
    account: "Account", signin: "Sign in", signup: "Sign up", sign_in_or_up: "Sign in / Sign up", sign_out: "Sign out",
    account_name: "Account name", account_name_rule: "3 to 20 letters (A–Z), digits, _ or -", password: "Password",
    password_rule: "At least 8 characters", name_needed: "Enter your name.", password_needed: "Enter your password.",
    signed_in_as: "Signed in as {name}.", your_profile: "Your profile", profile_of: "{name}: your profile",
    session_ended: "Your session has ended: sign in again.",
    hosting_needs_account: "Hosting a match with open seats needs an account: sign in or sign up below, then Create.",
    host_as: "You host as {name}.", join_as: "You join as {name}.",
    reason_invalid_credentials: "Wrong name or password.", reason_name_taken: "This name is taken: choose another.",
    reason_room_not_found: "No table is waiting with this code.", reason_match_full: "This table is full.",
    reason_rate_limited: "Too many tries: wait a moment and try again.",
    reason_already_seated: "You already sit at this table.",
    // room codes
    join_code: "Join with a code", room_code: "Room code", code_about: "6 letters and digits, from the host",
    code_rule: "A room code is 6 letters and digits (no 0, 1, I, L or O).", room_code_is: "Room code:",
    copy_code: "Copy code", code_copied: "Copied.", code_copy_by_hand: "The code is selected: copy it.",
    waiting_label: "Waiting for players", or_link: "Or share this link:",
    // profiles and replays
    kind: "Kind", kind_human: "person", kind_bot: "program", joined: "Joined", games: "Matches", wins: "Wins",
    matches: "Matches", more: "More", no_matches: "No matches yet.", player_not_found: "No such player.",
    one_hand: "1 hand", n_hands: "{n} hands", one_point: "1 point", n_points: "{n} points", abandoned: "abandoned",
    placed: "place {n} of {of}, {points}", replay_of: "Replay: {date}",
    puzzles: "Puzzles",
    leaderboard: "Leaderboard", table_size: "Table size", n_players: "{n} players", board_kind: "Who",
    board_humans: "Players", board_bots: "Bots", board_empty: "No rated players yet.",
    board_row: "{rating} ({games} rated matches)",
    challenge: "Challenge", rated: "Rated", challenge_sent: "Challenge sent: waiting for an answer.",
    accept: "Accept", decline: "Decline", withdraw: "Withdraw", seconds_left: "({n} s left)",
    challenged_you: "{name} challenges you to a {n}-player match", challenged_you_rated: "{name} challenges you to a {n}-player rated match",
    challenge_withdrawn: "The challenge was withdrawn.", challenge_declined: "The challenge was declined.",
    challenge_expired: "The challenge expired.", challenge_accepted: "Accepted: waiting for the table.",
    player_offline: "{name} is not online.", challenge_refused: "{name} does not take this kind of challenge.",
    ratings: "Ratings", no_ratings: "No rated matches yet.", provisional: "provisional",
    rating_at: "{players} players: {rating} ({games} rated matches)", rating_change: "Rating: {change}",
    rating_moved: "{before} → {after} ({diff})", rating_changes: "Rating changes", seat_rating: "{name}: {change}",
    ratings_pending: "Updating the ratings…", ratings_unavailable: "The rating changes are not in yet: your profile will show them.",
    // quick play
    quick_play: "Quick play", play_now: "Play now",
    play_now_about: "A rated table of 4: players of about your rating, and bots in the seats nobody takes within a few seconds.",
    finding_table: "Finding a table…", cancel_search: "Cancel", queue_cancelled: "The search was cancelled.",
    queue_left: "The search was cancelled elsewhere.", queue_gone: "The search has ended: press Play now again.",
    queue_held: "Your account is already looking for a table (in another tab or on another device).",
    queue_wait_here: "Wait for it here", queue_cancel_held: "Cancel that search",
    next: "Next", next_hand: "Next hand",
    // a replay's fair deal (docs/fair-deals.md)
    deal_verified: "Deal verified", deal_not_verified: "Deal NOT verified: {reason}",
    deal_problem_fields: "the replay's fair_deal is incomplete or malformed",
    deal_problem_commitment: "the revealed secret does not match the commitment",
    deal_problem_match: "its fair_deal is another match's", deal_problem_hand: "hand {n} was not dealt by the protocol",
    deal_problem_unavailable: "this page cannot compute SHA-256 (it needs https)",
    // --- A: the first screen (issue 27)
    play_vs_bots: "Play against bots", play_game: "Play", level: "Level", level_easy: "Easy", level_medium: "Medium",
    level_hard: "Hard", quick_game_about: "Quick game: one hand against three bots.", match_game: "Match",
    match_game_about: "Several hands against three bots; points by place.", more_options: "More options",
    play_rated: "Rated play",
    // --- B: the table (felt, hand, review between hands, final score card, settings) ---
    sort_groups: "Group by combination", review_title: "Hand {n} is over", review_of: "Hand {n} of {of} played.",
    review_extra: "The scores are tied: one more hand decides.", points_won: "+{n} points", final_title: "Final score",
    final_points: "{n} points", table_settings: "Table settings",
    autoplay_setting: "Play a selection automatically when it cannot be extended into a larger legal combination",
    sounds_setting: "Sounds (your turn, each play)",
    review_clock: "You lead the next hand: your turn clock is already running.",
    chat: "Chat", friends: "Friends",
  },
}, {
  code: "vi", name: "Tiếng Việt", texts: {
    title: "Tiến Lên", language: "Ngôn ngữ", home: "Sảnh",
    create: "Ván mới", your_name: "Tên bạn", players: "Số người", seat: "Ghế {n}",
    open_seat: "để trống (bạn bè vào)", bot_easy: "máy: dễ", bot_medium: "máy: vừa", bot_hard: "máy: khó",
    bot_expert: "máy: cao thủ", level_expert: "Cao thủ", bot_master: "máy: bậc thầy", level_master: "Bậc thầy",
    preset: "Luật", preset_standard: "chuẩn", preset_classic: "cổ điển", preset_ladder: "bậc thang",
    clock: "Giây mỗi lượt (0: không tính giờ)",
    timeouts: "Số lần hết giờ trước khi máy chơi thay", listed: "Hiện trong sảnh khi còn ghế trống",
    takeover: "Máy chơi thay người rời bàn hoặc hết giờ", more_rules: "Thêm luật",
    rules_unavailable: "Không tải được luật chơi: {message}",
    rule_hands: "Số ván", rule_scoring: "Tính điểm", rule_bombs: "Chặt", rule_tiebreak: "Khi hoà điểm",
    rule_start_card_rule: "Lượt đầu tiên phải có lá nhỏ nhất được chia",
    rule_end_on_first_out: "Hết ván khi người đầu tiên hết bài",
    rule_pass_reentry_with_bomb: "Đã bỏ lượt vẫn được chặt heo",
    scoring_places: "điểm theo hạng", scoring_wins: "chỉ tính ván thắng", scoring_none: "không (một ván)",
    scoring_places_about: "n người chơi: nhất được n-1 điểm, nhì n-2, …, bét 0",
    scoring_wins_about: "nhất được 1 điểm, còn lại 0",
    scoring_none_about: "không tính điểm: ai về nhất ván duy nhất thì thắng",
    bombs_exact: "đúng loại", bombs_classic: "cổ điển", bombs_ladder: "chặt chồng", bombs_off: "không chặt",
    bombs_exact_about: "mỗi bộ chặt đúng một loại: tứ quý hoặc 3 đôi thông chặt một heo, 4 đôi thông chặt đôi heo, 5 đôi thông chặt ba heo",
    bombs_classic_about: "tứ quý hoặc 3 đôi thông chặt một heo; 4 đôi thông chặt một heo hoặc đôi heo",
    bombs_ladder_about: "chặt được cả hàng chặt: tứ quý chặt 3 đôi thông, 4 đôi thông trở lên chặt tứ quý và đôi thông ngắn hơn",
    bombs_off_about: "không có chặt: chỉ bộ cùng loại, cùng số lá và lớn hơn mới đè được",
    tiebreak_best_finish: "đánh thêm một ván", tiebreak_until_clear: "đến khi có người dẫn",
    tiebreak_best_finish_about: "đánh thêm một ván; trong những người hoà, ai về hạng cao nhất thì thắng",
    tiebreak_until_clear_about: "đánh thêm đến khi một người dẫn điểm một mình (sau 10 ván thì cùng thắng)",
    start: "Tạo", open_matches: "Bàn đang chờ", none: "Không có.", join: "Vào", join_link: "Vào bằng liên kết",
    link_or_id: "Liên kết hoặc mã bàn", go: "Mở", your_matches: "Bàn của bạn", resume: "Chơi tiếp {id}",
    forget: "Bỏ", bot_name: "Máy {n}", refresh: "Tải lại", default_name: "Người chơi",
    waiting: "Đang chờ người chơi. Gửi liên kết này:", play: "Đánh", pass: "Bỏ lượt", hint: "Gợi ý", leave: "Rời bàn",
    leave_question: "Rời trận đấu?", leave_yes: "Có, rời bàn", leave_no: "Không, ở lại",
    rematch: "Chơi lại", your_turn: "Lượt của bạn", turn_of: "Lượt của {name}", table_empty: "Bàn trống.",
    table_by: "{name} đã đánh {what}:", cards_left: "còn {n} lá", card_left: "còn 1 lá",
    passed_mark: "đã bỏ", place: "hạng {n}", left_mark: "đã rời", taken_over: "máy chơi thay",
    score: "điểm {n}", you: "bạn", your_hand: "Bài của bạn", seats_label: "Các ghế", table_label: "Bàn",
    actions_label: "Thao tác", log: "Diễn biến", results: "Kết quả", scores: "Bảng điểm", hand_col: "Ván",
    total: "Tổng", clock_left: "còn {s} giây", hand_no: "Ván {n}", showing: "…",
    felt_waiting: "Đang chờ người chơi…", felt_hand_over: "Hết ván {n}.", felt_over: "Trận đấu kết thúc.",
    felt_lead: "Bàn trống: {name} đánh trước.",
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
    hx_lead: "Đánh ra {play}", hx_lead_lowest: "Đánh ra {play}, có lá nhỏ nhất của bạn", hx_beat: "Đè {table} bằng {play}",
    hx_bomb: "Chặt {table} bằng {play}", hx_go_out: "Đánh {play}, những lá cuối cùng: bạn hết bài",
    hx_pass_cannot_beat: "Bạn không có bài nào đè được {table}", hx_pass_keep: "Nhường {table} để giữ {kept} cho sau",
    hx_pass_save: "Nhường {table}: đè thì phải phá bài hoặc phí lá lớn",
    hr_none: "", hr_keeps_together: ", giữ nguyên {kept}", hr_keeps_twos: ", giữ heo để dành",
    hr_nearly_out: ": {danger}", hr_single_cannot_stop: " để một lá lẻ không chặn được: {danger}",
    hr_take_lead_back: " để giành lại lượt đánh", hr_win_lead: " để giành lượt đánh", hx_end: ".",
    danger: "{name} sắp hết bài (còn {n} lá)", danger_one: "{name} sắp hết bài (còn 1 lá)",
    S: "bích", C: "chuồn", D: "rô", H: "cơ", card: "{rank} {suit}",
    r3: "3", r4: "4", r5: "5", r6: "6", r7: "7", r8: "8", r9: "9", r10: "10", rJ: "J", rQ: "Q", rK: "K",
    rA: "át", r2: "heo",
    p3: "3", p4: "4", p5: "5", p6: "6", p7: "7", p8: "8", p9: "9", p10: "10", pJ: "J", pQ: "Q", pK: "K",
    pA: "át", p2: "heo",
    not_found: "Không có bàn này.",
    account: "Tài khoản", signin: "Đăng nhập", signup: "Đăng ký", sign_in_or_up: "Đăng nhập / Đăng ký", sign_out: "Đăng xuất",
    account_name: "Tên tài khoản", account_name_rule: "3 đến 20 chữ cái (A–Z), chữ số, _ hoặc -", password: "Mật khẩu",
    password_rule: "Ít nhất 8 ký tự", name_needed: "Hãy nhập tên.", password_needed: "Hãy nhập mật khẩu.",
    signed_in_as: "Đã đăng nhập: {name}.", your_profile: "Hồ sơ của bạn", profile_of: "{name}: hồ sơ của bạn",
    session_ended: "Phiên đăng nhập đã hết: hãy đăng nhập lại.",
    hosting_needs_account: "Mở bàn có ghế trống cần tài khoản: đăng nhập hoặc đăng ký bên dưới, rồi bấm Tạo.",
    host_as: "Bạn mở bàn với tên {name}.", join_as: "Bạn vào bàn với tên {name}.",
    reason_invalid_credentials: "Sai tên hoặc mật khẩu.", reason_name_taken: "Tên này đã có người dùng: hãy chọn tên khác.",
    reason_room_not_found: "Không có bàn nào đang chờ với mã này.", reason_match_full: "Bàn này đã đủ người.",
    reason_rate_limited: "Thử quá nhiều lần: hãy chờ một lát rồi thử lại.",
    reason_already_seated: "Bạn đã ngồi ở bàn này.",
    join_code: "Vào bằng mã", room_code: "Mã phòng", code_about: "6 chữ cái và chữ số, do chủ bàn gửi",
    code_rule: "Mã phòng gồm 6 chữ cái và chữ số (không có 0, 1, I, L, O).", room_code_is: "Mã phòng:",
    copy_code: "Chép mã", code_copied: "Đã chép.", code_copy_by_hand: "Mã đã được chọn: hãy chép nó.",
    waiting_label: "Đang chờ người chơi", or_link: "Hoặc gửi liên kết này:",
    kind: "Loại", kind_human: "người", kind_bot: "chương trình", joined: "Tham gia", games: "Số trận", wins: "Thắng",
    matches: "Các trận", more: "Xem thêm", no_matches: "Chưa có trận nào.", player_not_found: "Không có người chơi này.",
    one_hand: "1 ván", n_hands: "{n} ván", one_point: "1 điểm", n_points: "{n} điểm", abandoned: "bỏ dở",
    placed: "hạng {n}/{of}, {points}", replay_of: "Xem lại: {date}",
    puzzles: "Câu đố",
    leaderboard: "Bảng xếp hạng", table_size: "Số người chơi", n_players: "{n} người", board_kind: "Ai",
    board_humans: "Người chơi", board_bots: "Máy", board_empty: "Chưa có ai được xếp hạng.",
    board_row: "{rating} ({games} trận xếp hạng)",
    challenge: "Thách đấu", rated: "Tính điểm xếp hạng", challenge_sent: "Đã gửi lời thách đấu: đang chờ trả lời.",
    accept: "Nhận lời", decline: "Từ chối", withdraw: "Rút lại", seconds_left: "(còn {n} giây)",
    challenged_you: "{name} thách bạn một ván {n} người", challenged_you_rated: "{name} thách bạn một ván {n} người tính điểm xếp hạng",
    challenge_withdrawn: "Lời thách đấu đã được rút lại.", challenge_declined: "Lời thách đấu đã bị từ chối.",
    challenge_expired: "Lời thách đấu đã hết hạn.", challenge_accepted: "Đã nhận lời: đang chờ bàn.",
    player_offline: "{name} không trực tuyến.", challenge_refused: "{name} không nhận kiểu thách đấu này.",
    ratings: "Điểm xếp hạng", no_ratings: "Chưa có trận xếp hạng nào.", provisional: "tạm tính",
    rating_at: "{players} người: {rating} ({games} trận xếp hạng)", rating_change: "Xếp hạng: {change}",
    rating_moved: "{before} → {after} ({diff})", rating_changes: "Điểm xếp hạng thay đổi", seat_rating: "{name}: {change}",
    ratings_pending: "Đang cập nhật điểm xếp hạng…", ratings_unavailable: "Chưa có điểm xếp hạng mới: hồ sơ của bạn sẽ hiện chúng.",
    quick_play: "Chơi nhanh", play_now: "Chơi ngay",
    play_now_about: "Bàn 4 người tính điểm xếp hạng: người chơi cùng trình độ, và máy vào những ghế không ai ngồi sau vài giây.",
    finding_table: "Đang tìm bàn…", cancel_search: "Huỷ", queue_cancelled: "Đã huỷ tìm bàn.",
    queue_left: "Việc tìm bàn đã được huỷ ở nơi khác.", queue_gone: "Việc tìm bàn đã kết thúc: hãy bấm Chơi ngay lần nữa.",
    queue_held: "Tài khoản của bạn đang tìm bàn ở nơi khác (một thẻ hoặc một thiết bị khác).",
    queue_wait_here: "Chờ ở đây", queue_cancel_held: "Huỷ việc tìm bàn đó",
    next: "Tiếp", next_hand: "Ván sau",
    deal_verified: "Đã kiểm chứng việc chia bài", deal_not_verified: "Việc chia bài KHÔNG được kiểm chứng: {reason}",
    deal_problem_fields: "dữ liệu fair_deal của bản xem lại thiếu hoặc sai",
    deal_problem_commitment: "khóa bí mật được công bố không khớp với cam kết",
    deal_problem_match: "fair_deal thuộc về một trận khác", deal_problem_hand: "ván {n} không được chia theo giao thức",
    deal_problem_unavailable: "trang này không tính được SHA-256 (cần https)",
    // --- A: the first screen (issue 27)
    play_vs_bots: "Chơi với máy", play_game: "Chơi", level: "Mức độ", level_easy: "Dễ", level_medium: "Vừa",
    level_hard: "Khó", quick_game_about: "Ván nhanh: một ván với ba máy.", match_game: "Trận đấu",
    match_game_about: "Nhiều ván với ba máy; tính điểm theo thứ hạng.", more_options: "Thêm tùy chọn",
    play_rated: "Chơi xếp hạng",
    // --- B: the table (felt, hand, review between hands, final score card, settings) ---
    sort_groups: "Xếp theo bộ", review_title: "Hết ván {n}", review_of: "Đã chơi {n}/{of} ván.",
    review_extra: "Đang hoà điểm: đánh thêm một ván để phân định.", points_won: "+{n} điểm", final_title: "Kết quả chung cuộc",
    final_points: "{n} điểm", table_settings: "Cài đặt bàn chơi",
    autoplay_setting: "Tự đánh các lá đã chọn khi không thể ghép thành bộ lớn hơn hợp lệ",
    sounds_setting: "Âm thanh (đến lượt, mỗi lượt đánh)",
    review_clock: "Bạn đánh trước ở ván sau: đồng hồ của bạn đã bắt đầu chạy.",
    chat: "Trò chuyện", friends: "Bạn bè",
  },
}];

const KEY = "tienlen.lang";
const FALLBACK = LANGUAGES[0];

/** Each language's texts by its code (for checks over all of them). */
export const TEXTS = Object.fromEntries(LANGUAGES.map((lang) => [lang.code, lang.texts]));

/** The language of `code`, or English when the page has no such language. @param {string | null} code */
const languageOf = (code) => LANGUAGES.find((lang) => lang.code === code) ?? FALLBACK;

/** The language chosen before (kept in localStorage), or English when the page has no such language. */
const saved = () => languageOf(localStorage.getItem(KEY));

let current = saved();

/** The code of the language in use. */
export const language = () => current.code;

/** The code of the language chosen before, or English when the page has no such language. */
export const savedLanguage = () => saved().code;

/** Use the language of `code` (English when the page has no such language) and keep the choice. @param {string} code */
export function setLanguage(code) {
  current = languageOf(code);
  localStorage.setItem(KEY, current.code);
  document.documentElement.lang = current.code;
  document.title = t("title");
}

/** The text of `key` in the language in use, else in English, else the key itself. @param {string} key */
const text = (key) => current.texts[key] ?? FALLBACK.texts[key] ?? key;

/**
 * The text of `key` in the language in use, with `{name}` placeholders filled.
 * @param {string} key @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  return text(key).replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

/** Whether the page has a text of its own for `key`. @param {string} key */
export const has = (key) => key in current.texts || key in FALLBACK.texts;

/**
 * The text of `key` with placeholders filled by strings or nodes (cards shown face up, say), as a list of parts.
 * @param {string} key @param {Record<string, string | number | Node | (string | Node)[]>} [params]
 * @returns {(string | Node)[]}
 */
export function fill(key, params = {}) {
  return text(key).split(/(\{\w+\})/).flatMap((part) => {
    const found = part.match(/^\{(\w+)\}$/);
    if (!found) return part ? [part] : [];
    const value = params[found[1]] ?? "";
    return Array.isArray(value) ? value : [value instanceof Node ? value : String(value)];
  });
}
