"""A player who leaves and comes back, on the game page (RULES.md section 11), and the draw
game's first opener (section 9)."""

from __future__ import annotations

import re
from html import unescape

from tests.games.test_views import round_data, start_game

THREE = ["Ana", "Ben", "Cy"]


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_a_player_leaves_and_the_form_stops_asking_for_their_hand(client):
    game_id = start_game(client, THREE, rounds="3")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "A player leaves or comes back" not in page  # before round 1: nobody leaves
    assert (
        client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20, 2: 15}, 0)).status_code
        == 302
    )
    response = client.post(f"/games/{game_id}/leave", data={"player": "Cy"})
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Cy left after round 1." in text_of(page)
    assert 'id="hand_2"' not in page and 'id="hand_1"' in page
    # Example 11.1: round 2 A out, B 12; round 3 B out, A 30.
    assert (
        client.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 12}, 0)).status_code == 302
    )
    assert (
        client.post(f"/games/{game_id}/rounds", data=round_data(3, {0: 30}, 1)).status_code == 302
    )
    text = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Cy left after round 1 57 points 0 zero rounds" in text
    assert "12 † (away)" in text and "30 † (away)" in text
    history = text_of(client.get(f"/games/{game_id}/history").get_data(as_text=True))
    assert "Cy left the game after round 1" in history
    assert "Round 2, Cy: 12 (away: left the game)" in history


def test_a_player_comes_back(client):
    game_id = start_game(client, THREE)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20, 2: 15}, 0))
    client.post(f"/games/{game_id}/leave", data={"player": "Cy"})
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 12}, 0))
    response = client.post(f"/games/{game_id}/back", data={"player": "Cy"})
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Cy is back from round 3." in text_of(page)
    assert 'id="hand_2"' in page
    # Round 2's edit form asks only for those who played it.
    edit = client.get(f"/games/{game_id}/rounds/2/edit").get_data(as_text=True)
    assert 'id="hand_2"' not in edit and 'id="hand_1"' in edit


def test_a_refused_leave_says_why(client):
    game_id = start_game(client, THREE)
    response = client.post(f"/games/{game_id}/leave", data={"player": "Cy"}, follow_redirects=True)
    assert "No round has been played yet" in text_of(response.get_data(as_text=True))
    response = client.post(
        f"/games/{game_id}/back", data={"player": "Zed" * 40}, follow_redirects=True
    )
    assert response.status_code == 200
    assert "has not left the game" in text_of(response.get_data(as_text=True))


def test_with_one_player_left_the_game_can_only_be_ended(client):
    game_id = start_game(client, THREE)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20, 2: 15}, 0))
    client.post(f"/games/{game_id}/leave", data={"player": "Cy"})
    client.post(f"/games/{game_id}/leave", data={"player": "Ben"})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "the game can only be ended" in text_of(page)
    assert 'id="round-form"' not in page
    response = client.post(f"/games/{game_id}/rounds", data=round_data(2, {}, 0))
    assert response.status_code == 422
    assert "Only Ana is still playing" in text_of(response.get_data(as_text=True))


def test_the_draw_games_first_hand_names_no_seat(client):
    game_id = start_game(client, THREE, game_type="draw")
    text = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "The player holding the highest double opens." in text
    assert "Ana opens" not in text
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20, 2: 15}, 0))
    assert "Ben opens" in text_of(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_a_set_too_small_for_the_table_is_started_with_a_warning(client):
    players = [f"Player {n}" for n in range(14)]
    game_id = start_game(client, players, set_size="6")
    text = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert (
        "A double-6 set is too small for 14 players: its 28 tiles cannot deal 11 each. "
        "The rules suggest a double-18 set for 14 players." in text
    )
    game_id = start_game(client, players[:4])
    assert "the rules suggest" not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_house_rules_with_a_draw_game_are_refused_on_the_form(client):
    from tests.games.test_views import setup_data

    data = setup_data(THREE, game_type="draw", strategic_error="y")
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert "The draw game has no house-rule penalties" in text_of(response.get_data(as_text=True))


def test_a_conflict_over_a_round_a_player_missed_marks_only_what_differs(app, client):
    from tests.games.test_views import ConflictPage, second_scorer

    game_id = start_game(client, THREE)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20, 2: 15}, 0))
    client.post(f"/games/{game_id}/leave", data={"player": "Cy"})
    second = second_scorer(app, client, game_id)
    assert (
        client.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 12}, 0)).status_code == 302
    )
    response = second.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 13}, 0))
    assert response.status_code == 409
    page = ConflictPage(response.get_data(as_text=True))
    assert page.differs == ["Ben"]


def test_only_a_scorer_marks_a_player_as_left(app, client):
    game_id = start_game(client, THREE)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20, 2: 15}, 0))
    stranger = app.test_client()
    for action in ("leave", "back"):
        response = stranger.post(f"/games/{game_id}/{action}", data={"player": "Cy"})
        assert response.status_code in (403, 404)
    text = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "left after round" not in text


def test_undoing_the_round_a_player_left_after_asks_for_their_hand_again(client):
    """RULES.md section 11: Cy leaves after round 2, round 2 is undone; the form for round 2
    asks for Cy's hand again and the sheet still says Cy left after round 2."""
    game_id = start_game(client, THREE, rounds="4")
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20, 2: 15}, 0))
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 2, 2: 5}, 0))
    client.post(f"/games/{game_id}/leave", data={"player": "Cy"})
    response = client.post(f"/games/{game_id}/undo", data={"number": "2", "confirm": "yes"})
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="hand_2"' in page
    assert "Cy left after round 2" in text_of(page)
    response = client.post(f"/games/{game_id}/rounds", data=round_data(2, {1: 12, 2: 3}, 0))
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="hand_2"' not in page
    assert "Cy left after round 2 18 points" in text_of(page)
