// @ts-check
/**
 * The texts of watching and talking (the chat, mute/block/report, the live table and the first screen's link to the
 * tournaments, friends, shown hands), in each language of the page by its code, added to the page's languages (i18n.js
 * LANGUAGES) when this module is loaded, so that no screen loads the words of parts it does not show (a language
 * without them reads English).
 */

import { LANGUAGES } from "../i18n.js";

/** @type {Record<string, Record<string, string>>} */
export const SOCIAL_TEXTS = {
  en: {
    // watching a match (watch.js; the table's own few words are in table/watch_words.js)
    watching: "Watching: {names}", n_watching: "{n} watching",
    watch_replay: "The replay, move by move",
    // the chat
    chat_room_table: "players", chat_room_spectators: "spectators", chat_text: "Message",
    chat_send: "Send", chat_chars_left: "{n} characters left", chat_phrases: "Quick phrases",
    chat_removed: "(removed by a moderator)", chat_empty: "No messages yet.", chat_unread: "{n} new", chat_read_only: "Sign in to chat.",
    chat_slow: "You are writing too fast: wait a moment, then send again.",
    chat_muted_until: "A moderator muted you in the chat until {when}.", chat_muted: "A moderator muted you in the chat.",
    chat_closed: "The chat of this match is closed.", chat_sign_in: "Your session ended: sign in again to chat.",
    chat_menu: "Message of {name}: actions", chat_mute: "Mute {name}", chat_block: "Block {name}",
    chat_report: "Report this message", chat_reported: "Reported. A moderator will read it. Thank you.",
    chat_already_reported: "You reported this message already.", chat_muted_done: "{name} is muted: their messages are hidden.",
    chat_blocked_done: "{name} is blocked: neither of you reads the other's messages.",
    // the live table on the first screen
    live_title: "Live now", live_featured: "Featured", live_none: "No match to watch is being played now.",
    live_hand: "hand {n}", watch: "Watch", watch_name: "Watch {name}'s match",
    live_more: "More live tables", watch_players: "Watch the match of {names}",
    // friends
    follow: "Follow", unfollow: "Unfollow", followers: "Followers", following_title: "Whom you follow",
    presence_playing: "playing", presence_online: "online", presence_away: "away", last_seen: "last seen {when}",
    friends_none: "You follow nobody yet: follow players from their profiles.",
    friends_setting: "Tell me when someone I follow starts a match", friend_started: "{name} started a match.",
    playing_now: "Playing now", not_watchable: "not open to watch", unfollow_name: "Unfollow {name}",
    // shown hands
    shown_hands: "The hands as dealt", hand_of: "{name}'s hand",
    // the first screen's link to the tournaments
    tournaments: "Tournaments",
  },
  vi: {
    watching: "Đang xem: {names}", n_watching: "{n} người đang xem",
    watch_replay: "Xem lại từng nước",
    chat_room_table: "người chơi", chat_room_spectators: "người xem", chat_text: "Tin nhắn",
    chat_send: "Gửi", chat_chars_left: "còn {n} ký tự", chat_phrases: "Câu nhanh",
    chat_removed: "(đã bị người điều hành xoá)", chat_empty: "Chưa có tin nhắn.", chat_unread: "{n} tin mới", chat_read_only: "Đăng nhập để trò chuyện.",
    chat_slow: "Bạn gửi nhanh quá: chờ một chút rồi gửi lại.",
    chat_muted_until: "Người điều hành đã cấm bạn trò chuyện đến {when}.", chat_muted: "Người điều hành đã cấm bạn trò chuyện.",
    chat_closed: "Phần trò chuyện của ván này đã đóng.", chat_sign_in: "Phiên đăng nhập đã hết: đăng nhập lại để trò chuyện.",
    chat_menu: "Tin nhắn của {name}: thao tác", chat_mute: "Ẩn tin của {name}", chat_block: "Chặn {name}",
    chat_report: "Báo cáo tin nhắn này", chat_reported: "Đã báo cáo. Người điều hành sẽ xem. Cảm ơn bạn.",
    chat_already_reported: "Bạn đã báo cáo tin nhắn này rồi.", chat_muted_done: "Đã ẩn tin của {name}.",
    chat_blocked_done: "Đã chặn {name}: hai bên không đọc được tin nhắn của nhau.",
    live_title: "Đang diễn ra", live_featured: "Nổi bật", live_none: "Hiện không có ván nào đang chơi để xem.",
    live_hand: "ván {n}", watch: "Xem", watch_name: "Xem ván của {name}",
    live_more: "Các bàn khác đang chơi", watch_players: "Xem ván của {names}",
    follow: "Theo dõi", unfollow: "Bỏ theo dõi", followers: "Người theo dõi",
    following_title: "Những người bạn theo dõi",
    presence_playing: "đang chơi", presence_online: "trực tuyến", presence_away: "vắng mặt", last_seen: "lần cuối {when}",
    friends_none: "Bạn chưa theo dõi ai: hãy theo dõi người chơi từ trang hồ sơ của họ.",
    friends_setting: "Báo cho tôi khi người tôi theo dõi bắt đầu một ván", friend_started: "{name} vừa bắt đầu một ván.",
    playing_now: "Đang chơi", not_watchable: "không cho xem", unfollow_name: "Bỏ theo dõi {name}",
    shown_hands: "Bài được chia", hand_of: "Bài của {name}",
    tournaments: "Giải đấu",
  },
};

for (const lang of LANGUAGES) Object.assign(lang.texts, SOCIAL_TEXTS[lang.code] ?? {});
