// @ts-check
/**
 * The texts of the moderators' page (/moderate), in each language of the page by its code, added to the page's
 * languages (i18n.js LANGUAGES) when this module is loaded: no other screen loads them.
 */

import { ApiError } from "../api.js";
import { message } from "../dom.js";
import { LANGUAGES, has, t } from "../i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const MODERATE_TEXTS = {
  en: {
    mod_title: "Moderating", mod_token: "Moderator token", mod_token_about: "Kept in this tab only, until you close it or press Forget.",
    mod_use: "Use this token", mod_forget: "Forget the token", mod_token_needed: "Paste the moderator token first.",
    mod_reports: "Open reports", mod_no_reports: "No open reports.", mod_more: "More",
    mod_said: "{name} said, in the {room} room:", mod_room_table: "players'", mod_room_spectators: "spectators'",
    mod_phrase: "(quick phrase)", mod_match: "Match {id}", mod_reported: "Reported by {name}, {when}", mod_why: "Why: {why}",
    mod_remove: "Remove message", mod_dismiss: "Dismiss", mod_removed: "The message is removed; its reports are closed.",
    mod_dismissed: "The report is dismissed; the message stays.",
    mod_mute_h: "Mute an account's chat", mod_name: "Account name", mod_minutes: "Minutes (1 to 43200)",
    mod_mute: "Mute", mod_unmute: "Unmute", mod_muted: "{name} cannot chat until {when}.", mod_unmuted: "{name} may chat again.",
    mod_close_h: "Close an account", mod_close: "Close account",
    mod_close_ask: "Close the account {name}? Its sessions and tokens are revoked at once and nobody logs in as it again. This cannot be undone.",
    mod_close_yes: "Yes, close it", mod_close_no: "No, keep it", mod_closed: "The account {name} is closed.",
    mod_feature_h: "The live table", mod_match_id: "Match id", mod_feature: "Feature this match", mod_unfeature: "Feature none",
    mod_featured: "The match {id} is on the live table.", mod_unfeatured: "The live table shows the best live match again.",
    mod_audit: "Audit list", mod_no_acts: "No acts yet.", mod_name_needed: "Enter an account name.",
    mod_match_needed: "Enter a match id.",
    mod_act_message_removed: "message removed", mod_act_report_dismissed: "report dismissed", mod_act_chat_muted: "chat muted",
    mod_act_chat_unmuted: "chat unmuted", mod_act_account_closed: "account closed", mod_act_match_featured: "match featured",
    mod_act_match_unfeatured: "featured match cleared",
    // refusals, by reason
    mod_not_moderator: "This token is not the moderator token.", mod_player_not_found: "No account has this name.",
    mod_message_not_found: "This message is gone already (removed, or its match is no longer kept).",
    mod_report_not_found: "This report is closed already.", mod_match_not_found: "No such match.",
    mod_match_not_playing: "This match is not being played (waiting, or over).",
    mod_not_watchable: "This match's host turned watching off.", mod_invalid_request: "Check the form: {message}",
    mod_rate_limited: "Too many requests: wait a moment.", mod_store_unavailable: "The server's store does not answer: try again.",
  },
  vi: {
    mod_title: "Kiểm duyệt", mod_token: "Mã kiểm duyệt", mod_token_about: "Chỉ giữ trong thẻ này, tới khi bạn đóng thẻ hoặc bấm Quên.",
    mod_use: "Dùng mã này", mod_forget: "Quên mã", mod_token_needed: "Hãy dán mã kiểm duyệt trước.",
    mod_reports: "Báo cáo đang mở", mod_no_reports: "Không có báo cáo nào đang mở.", mod_more: "Xem thêm",
    mod_said: "{name} đã nói, trong phòng {room}:", mod_room_table: "người chơi", mod_room_spectators: "người xem",
    mod_phrase: "(câu nói nhanh)", mod_match: "Trận {id}", mod_reported: "{name} báo cáo, {when}", mod_why: "Lý do: {why}",
    mod_remove: "Xoá tin nhắn", mod_dismiss: "Bỏ qua", mod_removed: "Đã xoá tin nhắn; các báo cáo về nó đã đóng.",
    mod_dismissed: "Đã bỏ qua báo cáo; tin nhắn vẫn giữ nguyên.",
    mod_mute_h: "Cấm chat một tài khoản", mod_name: "Tên tài khoản", mod_minutes: "Số phút (1 đến 43200)",
    mod_mute: "Cấm chat", mod_unmute: "Bỏ cấm", mod_muted: "{name} không thể chat tới {when}.", mod_unmuted: "{name} đã có thể chat lại.",
    mod_close_h: "Đóng một tài khoản", mod_close: "Đóng tài khoản",
    mod_close_ask: "Đóng tài khoản {name}? Mọi phiên và mã của nó bị thu hồi ngay và không ai đăng nhập vào nó được nữa. Không thể hoàn tác.",
    mod_close_yes: "Có, đóng nó", mod_close_no: "Không, giữ lại", mod_closed: "Đã đóng tài khoản {name}.",
    mod_feature_h: "Bàn đang diễn ra", mod_match_id: "Mã trận", mod_feature: "Giới thiệu trận này", mod_unfeature: "Không giới thiệu trận nào",
    mod_featured: "Trận {id} đang được giới thiệu.", mod_unfeatured: "Bàn đang diễn ra lại hiện trận hay nhất.",
    mod_audit: "Nhật ký kiểm duyệt", mod_no_acts: "Chưa có việc nào.", mod_name_needed: "Hãy nhập tên tài khoản.",
    mod_match_needed: "Hãy nhập mã trận.",
    mod_act_message_removed: "xoá tin nhắn", mod_act_report_dismissed: "bỏ qua báo cáo", mod_act_chat_muted: "cấm chat",
    mod_act_chat_unmuted: "bỏ cấm chat", mod_act_account_closed: "đóng tài khoản", mod_act_match_featured: "giới thiệu trận",
    mod_act_match_unfeatured: "thôi giới thiệu trận",
    mod_not_moderator: "Mã này không phải mã kiểm duyệt.", mod_player_not_found: "Không có tài khoản nào tên này.",
    mod_message_not_found: "Tin nhắn này không còn nữa (đã bị xoá, hoặc trận của nó không còn được giữ).",
    mod_report_not_found: "Báo cáo này đã đóng rồi.", mod_match_not_found: "Không có trận này.",
    mod_match_not_playing: "Trận này không đang diễn ra (đang chờ, hoặc đã xong).",
    mod_not_watchable: "Chủ bàn của trận này đã tắt chế độ xem.", mod_invalid_request: "Hãy kiểm tra lại: {message}",
    mod_rate_limited: "Quá nhiều yêu cầu: chờ một chút.", mod_store_unavailable: "Kho dữ liệu của máy chủ không trả lời: thử lại.",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, MODERATE_TEXTS[lang.code] ?? {});

/** A refusal in words: the page's text for its `reason` (with the server's message), else the message. @param {unknown} e */
export const refusalText = (e) =>
  (e instanceof ApiError && has(`mod_${e.reason}`) ? t(`mod_${e.reason}`, { message: e.message }) : message(e));
