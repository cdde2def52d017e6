"""The Tiến Lên rules engine: pure, deterministic, and the single referee.

Typical use::

    import random
    from tienlen.engine import Match, resolve_rules, seat_view

    match, events = Match.new(resolve_rules({"preset": "standard"}), random.Random(7))
    plays = match.legal_plays()          # what the seat on turn may do
    events = match.play(match.turn, plays.plays[0].mask)
    view = seat_view(match, 0)           # what seat 0 may see
"""

from .cards import (
    CARDS,
    Card,
    Rank,
    Suit,
    UnknownCardError,
    cards_mask,
    format_cards,
    format_mask,
    mask_of,
    parse_cards,
    parse_index,
)
from .combos import Combination, beats, bomb_beats, bombable_twos, classify, is_bomb, may_reenter
from .deal import FAIR_PROTOCOL, MAX_ENTROPY, FairDeal, commitment, parse_deal, shuffled_deal
from .events import Event, HandEnded, HandStarted, MatchEnded, Passed, Played, TableCleared, WentOut
from .kinds import Kind
from .legal import answer_masks, bomb_answers, lead_masks, play_order, seat_legal_masks
from .match import DealError, HandResult, IllegalActionError, LegalPlays, Match, Outcome, Status, hand_points
from .rules import (
    BOMB_TABLE,
    DEFAULT_PRESET,
    PARAMETERS,
    PRESET_NAMES,
    PRESETS,
    Bombs,
    Parameter,
    RulesError,
    RuleSet,
    Scoring,
    Shape,
    Target,
    Tiebreak,
    resolve_rules,
)
from .serialize import SCHEMA_VERSION, StateVersionError, match_from_dict, match_to_dict
from .views import PublicView, SeatView, public_view, seat_view

# Every refusal reason, in the order of precedence when several apply.
REFUSAL_REASONS = (
    "match_not_playing",
    "not_your_turn",
    "unknown_card",
    "duplicate_cards",
    "cards_not_in_hand",
    "not_a_combination",
    "must_include_start_card",
    "cannot_pass_on_lead",
    "locked_bomb_only",
    "does_not_beat",
)

__all__ = [
    "BOMB_TABLE",
    "CARDS",
    "DEFAULT_PRESET",
    "FAIR_PROTOCOL",
    "MAX_ENTROPY",
    "PARAMETERS",
    "PRESETS",
    "PRESET_NAMES",
    "REFUSAL_REASONS",
    "SCHEMA_VERSION",
    "Bombs",
    "Card",
    "Combination",
    "DealError",
    "Event",
    "FairDeal",
    "HandEnded",
    "HandResult",
    "HandStarted",
    "IllegalActionError",
    "Kind",
    "LegalPlays",
    "Match",
    "MatchEnded",
    "Outcome",
    "Parameter",
    "Passed",
    "Played",
    "PublicView",
    "Rank",
    "RuleSet",
    "RulesError",
    "Scoring",
    "SeatView",
    "Shape",
    "StateVersionError",
    "Status",
    "Suit",
    "TableCleared",
    "Target",
    "Tiebreak",
    "UnknownCardError",
    "WentOut",
    "answer_masks",
    "beats",
    "bomb_answers",
    "bomb_beats",
    "bombable_twos",
    "cards_mask",
    "classify",
    "commitment",
    "format_cards",
    "format_mask",
    "hand_points",
    "is_bomb",
    "lead_masks",
    "mask_of",
    "match_from_dict",
    "match_to_dict",
    "may_reenter",
    "parse_cards",
    "parse_deal",
    "parse_index",
    "play_order",
    "public_view",
    "resolve_rules",
    "seat_legal_masks",
    "seat_view",
    "shuffled_deal",
]
