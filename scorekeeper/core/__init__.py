"""The rules of Mexican Train and the draw game: pure Python, standard library only.

Everything the app shows about scores comes from here; the web layer never re-implements a
rule. See RULES.md for the spec each function implements.
"""

from .engines import engine_of, engines, opener
from .game import GameState, game_state, round_scores, team_scores
from .problems import N_, Problem, RuleError
from .rounds import (
    HandEntry,
    HandResult,
    Penalty,
    PenaltyEntry,
    PenaltyKind,
    RoundCheck,
    RoundEntry,
    RoundResult,
    check_round,
    draw_hand_scores,
    draw_next_opener,
    parse_points,
    team_round_score,
)
from .setup import (
    COMMON_OPEN_TRAIN_POINTS,
    DRAW_TARGETS,
    PLAYER_LIMITS,
    GameRules,
    GameSetup,
    GameType,
    HouseRules,
    Order,
    Recommendation,
    clean_name,
    draw_hand_size,
    hand_size_choices,
    new_game,
    recommend,
)
from .standings import (
    DecidedBy,
    Standing,
    lowest_nonzero,
    running_totals,
    standings,
    total,
    winners,
    zero_rounds,
)
from .tiles import (
    SUPPORTED_SETS,
    BlankScoring,
    Tile,
    best_tiles_value,
    double,
    hand_value,
    most_in_hands,
    parse_tile,
    set_pips,
    tile_count,
    tile_value,
    tiles_in_set,
)

__all__ = [
    "COMMON_OPEN_TRAIN_POINTS", "DRAW_TARGETS", "N_", "PLAYER_LIMITS", "SUPPORTED_SETS",
    "BlankScoring", "DecidedBy", "GameRules", "GameSetup", "GameState", "GameType",
    "HandEntry", "HandResult", "HouseRules", "Order", "Penalty", "PenaltyEntry", "PenaltyKind",
    "Problem", "Recommendation", "RoundCheck", "RoundEntry", "RoundResult", "RuleError",
    "Standing", "Tile", "best_tiles_value", "check_round", "clean_name", "double",
    "draw_hand_scores", "draw_hand_size", "draw_next_opener", "engine_of", "engines",
    "game_state", "hand_size_choices", "hand_value", "lowest_nonzero", "most_in_hands",
    "new_game", "opener", "parse_points", "parse_tile", "recommend", "round_scores",
    "running_totals", "set_pips", "standings", "team_round_score", "team_scores", "tile_count",
    "tile_value", "tiles_in_set", "total", "winners", "zero_rounds",
]
