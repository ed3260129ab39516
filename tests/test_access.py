"""scorekeeper.access: the club-role rule every page and the API ask about a club game."""

import pytest

from scorekeeper.access import club_game_access, may_score


@pytest.mark.parametrize(
    ("role", "access", "scores"),
    [
        (None, None, False),
        ("viewer", "view", False),
        ("scorer", "edit", True),
        ("owner", "edit", True),
    ],
)
def test_a_scorer_or_owner_scores_a_club_game_and_a_viewer_watches_it(role, access, scores):
    assert club_game_access(role) == access
    assert may_score(role) is scores
