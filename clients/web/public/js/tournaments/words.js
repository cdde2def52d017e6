// @ts-check
/**
 * The texts of the tournaments' pages (/tournaments and /t/<id>), in each language of the page by its code, added to
 * the page's languages (i18n.js LANGUAGES) when this module is loaded: no other screen loads them.
 */

import { ApiError } from "../api.js";
import { message } from "../dom.js";
import { LANGUAGES, has, t } from "../i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const TOURNAMENT_TEXTS = {
  en: {
    t_title: "Tournaments", t_upcoming: "Upcoming", t_running: "Running", t_finished: "Finished", t_none: "None.",
    t_format_swiss: "Swiss", t_format_arena: "Arena", t_format_duplicate: "Duplicate", t_placed: "place {n} of {of}",
    t_tables_of: "tables of {n}", t_entrants: "{n}/{max} entrants", t_when_full: "starts when full",
    t_starts: "starts {when}", t_rated: "rated", t_casual: "casual", t_bots_in: "bots allowed", t_no_bots: "no bots",
    t_join: "Join", t_withdraw: "Withdraw", t_joined: "You joined.", t_sign_in: "Sign in to join or create a tournament.",
    t_more: "More",
    // the form
    t_create: "Create a tournament", t_name: "Name", t_format: "Format", t_players: "Table size", t_hands: "Hands a match",
    t_turn: "Seconds a turn", t_start: "Start", t_start_full: "When full", t_start_at: "At a time", t_start_time: "Start time",
    t_min: "Fewest entrants", t_max: "Most entrants", t_rounds: "Rounds", t_window: "Minutes of play", t_deals: "Deals",
    t_bots: "Bots may enter", t_create_go: "Create", t_created: "Created.",
    // refusals by reason
    t_bad_terms: "These terms do not hold: {message}", t_too_many_tournaments: "You have 3 open tournaments already.",
    t_tournament_full: "This tournament is full.", t_tournament_not_open: "This tournament has started or is over.",
    t_bots_not_admitted: "Bots may not enter this tournament.", t_not_entered: "You have not joined it.",
    t_tournament_not_found: "There is no such tournament.", t_rate_limited: "Too many requests: wait a moment.",
    // one tournament
    t_status_open: "open", t_status_running: "running", t_status_finished: "finished", t_status_cancelled: "cancelled",
    t_terms: "Terms", t_by: "by {name}", t_entrants_h: "Entrants", t_bot: "bot", t_house: "house bot",
    t_withdrawn: "withdrew", t_standings: "Standings", t_rank: "Rank", t_player: "Player", t_score: "Score",
    t_matches: "Matches", t_firsts: "Firsts", t_round: "Round {n}", t_table: "Table {n}", t_watch: "Watch",
    t_play: "Your table", t_ended: "ended", t_replay: "Replay", t_your_table: "Your table is ready: round {round}, table {table}.",
    t_go_table: "Go to your table", t_final: "Final standings", t_cancel: "Cancel the tournament", t_back: "All tournaments",
    t_percent: "{p}%", t_no_entrants: "Nobody has joined yet.",
  },
  vi: {
    t_title: "Giải đấu", t_upcoming: "Sắp diễn ra", t_running: "Đang diễn ra", t_finished: "Đã kết thúc", t_none: "Không có.",
    t_format_swiss: "Hệ Thuỵ Sĩ", t_format_arena: "Đấu trường", t_format_duplicate: "Bài giống nhau",
    t_placed: "hạng {n} trên {of}",
    t_tables_of: "bàn {n} người", t_entrants: "{n}/{max} người dự", t_when_full: "bắt đầu khi đủ người",
    t_starts: "bắt đầu {when}", t_rated: "tính điểm xếp hạng", t_casual: "không tính điểm", t_bots_in: "cho máy dự",
    t_no_bots: "không cho máy", t_join: "Tham gia", t_withdraw: "Rút lui", t_joined: "Bạn đã tham gia.",
    t_sign_in: "Đăng nhập để tham gia hoặc tạo giải đấu.", t_more: "Thêm",
    t_create: "Tạo giải đấu", t_name: "Tên", t_format: "Thể thức", t_players: "Số người một bàn", t_hands: "Số ván một trận",
    t_turn: "Số giây một lượt", t_start: "Bắt đầu", t_start_full: "Khi đủ người", t_start_at: "Vào một thời điểm",
    t_start_time: "Thời điểm bắt đầu", t_min: "Ít người dự nhất", t_max: "Nhiều người dự nhất", t_rounds: "Số vòng",
    t_window: "Số phút thi đấu", t_deals: "Số bộ bài", t_bots: "Cho máy tham gia", t_create_go: "Tạo", t_created: "Đã tạo.",
    t_bad_terms: "Điều lệ chưa hợp lệ: {message}", t_too_many_tournaments: "Bạn đã có 3 giải đấu đang mở.",
    t_tournament_full: "Giải đấu này đã đủ người.", t_tournament_not_open: "Giải đấu này đã bắt đầu hoặc đã kết thúc.",
    t_bots_not_admitted: "Giải đấu này không cho máy tham gia.", t_not_entered: "Bạn chưa tham gia giải này.",
    t_tournament_not_found: "Không có giải đấu này.", t_rate_limited: "Quá nhiều yêu cầu: chờ một chút.",
    t_status_open: "đang mở", t_status_running: "đang diễn ra", t_status_finished: "đã kết thúc", t_status_cancelled: "đã huỷ",
    t_terms: "Điều lệ", t_by: "do {name} tạo", t_entrants_h: "Người dự", t_bot: "máy", t_house: "máy của nhà",
    t_withdrawn: "đã rút", t_standings: "Bảng xếp hạng", t_rank: "Hạng", t_player: "Người chơi", t_score: "Điểm",
    t_matches: "Số trận", t_firsts: "Số lần nhất", t_round: "Vòng {n}", t_table: "Bàn {n}", t_watch: "Xem",
    t_play: "Bàn của bạn", t_ended: "đã xong", t_replay: "Xem lại",
    t_your_table: "Bàn của bạn đã sẵn sàng: vòng {round}, bàn {table}.", t_go_table: "Đến bàn của bạn",
    t_final: "Bảng xếp hạng chung cuộc", t_cancel: "Huỷ giải đấu", t_back: "Tất cả giải đấu",
    t_percent: "{p}%", t_no_entrants: "Chưa có ai tham gia.",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, TOURNAMENT_TEXTS[lang.code] ?? {});

/** A refusal in words: the page's text for its `reason` (with the server's message), else the message. @param {unknown} e */
export const refusalText = (e) =>
  (e instanceof ApiError && has(`t_${e.reason}`) ? t(`t_${e.reason}`, { message: e.message }) : message(e));
