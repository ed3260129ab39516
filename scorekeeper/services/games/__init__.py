"""Game use cases: read a game (its snapshot), create it, record, correct and undo rounds, seat
late arrivals, let players leave and come back, end and reopen it. One module a job; this
package names what the rest uses.

- snapshot.py: the one read model (a committed version, worked out once, kept per version);
- versions.py: the one place a game's version moves (every write bumps it);
- mapping.py: a game as rows and as the core sees it, both ways;
- reads.py: which game a page or link points to, rights, history, a device's games;
- unit.py: a write pinned to the version it read, all or nothing (StaleGame on a lost race);
- writes.py, late.py and leavers.py: the changes;
- sent_hands.py: hands players send from their own phones (table links), before the save;
- conflicts.py: a round two phones saved, both sides scored, for the losing phone to choose.
"""

from scorekeeper.services.games.conflicts import Conflict, conflict_of
from scorekeeper.services.games.late import as_played, join_late, late_join_problem
from scorekeeper.services.games.leavers import CAME_BACK, LEFT, come_back, come_back_problem, leave
from scorekeeper.services.games.leavers import leave_problem as leaving_problem
from scorekeeper.services.games.mapping import (
    describe_hand,
    entry_of,
    result_of,
    rule_columns,
    rules_of,
    setup_of,
    store_result,
)
from scorekeeper.services.games.reads import (
    DeviceGameLine,
    GameRef,
    device_access,
    game_by_table_token,
    game_by_token,
    game_columns_for_device,
    game_for_device,
    game_keys,
    game_ref,
    game_row,
    games_of_device,
    history_of,
    opens,
)
from scorekeeper.services.games.sent_hands import (
    HandRefused,
    NotThisRound,
    SentLine,
    current_round,
    send_hand,
    sent_hands,
    sent_key,
)
from scorekeeper.services.games.snapshot import (
    JOINED_LATE,
    Snapshot,
    keep_answer,
    kept_answer,
    kept_part,
    snapshot_of,
    state_of,
)
from scorekeeper.services.games.unit import Busy
from scorekeeper.services.games.versions import StaleGame
from scorekeeper.services.games.writes import (
    GameOver,
    KeyReused,
    SaveOutcome,
    add_game,
    create_game,
    edit_round,
    end_game,
    in_the_future,
    record_round,
    remember,
    reopen_game,
    season_on,
    store_final_figures,
    undo_last_round,
)

__all__ = [
    "HandRefused",
    "NotThisRound",
    "SentLine",
    "current_round",
    "game_by_table_token",
    "send_hand",
    "sent_hands",
    "sent_key",
    "CAME_BACK",
    "LEFT",
    "come_back",
    "come_back_problem",
    "leave",
    "leaving_problem",
    "Busy",
    "Conflict",
    "JOINED_LATE",
    "DeviceGameLine",
    "GameOver",
    "GameRef",
    "KeyReused",
    "SaveOutcome",
    "Snapshot",
    "StaleGame",
    "add_game",
    "conflict_of",
    "as_played",
    "create_game",
    "describe_hand",
    "device_access",
    "edit_round",
    "end_game",
    "entry_of",
    "game_by_token",
    "game_columns_for_device",
    "game_for_device",
    "game_ref",
    "game_keys",
    "keep_answer",
    "kept_answer",
    "opens",
    "game_row",
    "games_of_device",
    "history_of",
    "in_the_future",
    "join_late",
    "late_join_problem",
    "record_round",
    "remember",
    "reopen_game",
    "result_of",
    "rule_columns",
    "rules_of",
    "season_on",
    "setup_of",
    "kept_part",
    "snapshot_of",
    "state_of",
    "store_final_figures",
    "store_result",
    "undo_last_round",
]
