"""Game night pages through the test client: what a scorer at the table sees and keeps."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Round
from scorekeeper.services import games as game_service
from tests.helpers import load_game

FOUR = ["Ana", "Ben", "Cy", "Di"]


def setup_data(players=FOUR, **options) -> dict[str, str]:
    data = {f"players-{i}": name for i, name in enumerate(players)}
    data.update(
        game_type="mexican_train",
        set_size="12",
        order="descending",
        blank_scoring="face",
        open_train_points="0",
        target="100",
        submit="Start",
    )
    data.update({key: str(value) for key, value in options.items()})
    return data


def start_game(client, players=FOUR, **options) -> int:
    response = client.post("/games/new", data=setup_data(players, **options))
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def round_data(number: int, pips: dict[int, object], out: int | str | None = None, **extra):
    data = {"number": str(number)}
    for seat, value in pips.items():
        if isinstance(value, list):
            data[f"mode_{seat}"] = "tiles"
            data[f"tiles_{seat}"] = value
        else:
            data[f"mode_{seat}"] = "pips"
            data[f"pips_{seat}"] = str(value)
    if out is not None:
        data["out"] = str(out)
    data.update(extra)
    return data


def errors_on_page(html: str) -> list[str]:
    return [unescape(m) for m in re.findall(r'class="error"[^>]*>([^<]*)<', html)]


class HandBlocks(HTMLParser):
    """The round sheet as a reader meets it: per hand (by seat), its inputs, its error
    paragraphs and whether its tile picker is open; and the inputs outside any hand."""

    def __init__(self, html: str):
        super().__init__()
        self.inputs: dict[int | None, list[dict[str, str | None]]] = {None: []}
        self.errors: dict[int | None, dict[str, str]] = {None: {}}
        self.picker_open: dict[int, bool] = {}
        self._seat: int | None = None
        self._error: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "fieldset" and "hand" in (attributes.get("class") or "").split():
            self._seat = int(attributes["data-seat"])
            self.inputs[self._seat], self.errors[self._seat] = [], {}
        elif tag == "input":
            self.inputs[self._seat].append(attributes)
        elif tag == "details" and self._seat is not None:
            self.picker_open[self._seat] = "open" in attributes
        elif tag == "p" and attributes.get("class") == "error":
            self._error = attributes["id"]
            self.errors[self._seat][self._error] = ""

    def handle_endtag(self, tag):
        if tag == "fieldset":
            self._seat = None
        elif tag == "p":
            self._error = None

    def handle_data(self, data):
        if self._error is not None:
            self.errors[self._seat][self._error] += data

    def checked(self, seat: int | None, name: str) -> list[str]:
        """The values of the boxes or radios named `name` that are ticked."""
        return [
            i["value"] or "" for i in self.inputs[seat] if i.get("name") == name and "checked" in i
        ]

    def named(self, seat: int | None, name: str) -> list[dict[str, str | None]]:
        return [i for i in self.inputs[seat] if i.get("name") == name]


def saved_rounds(app, game_id: int) -> int:
    with app.app_context():
        return db.session.execute(
            select(func.count(Round.id)).where(Round.game_id == game_id)
        ).scalar_one()


def state(app, game_id: int):
    with app.app_context():
        return game_service.state_of(load_game(game_id))


# Setting up ------------------------------------------------------------------------------------


def test_setup_page_offers_four_rows_and_numeric_fields(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert page.count('name="players-') == 4
    assert 'inputmode="numeric"' in page
    assert "Start the game" in page


def test_four_names_and_start_is_enough(app, client):
    game_id = start_game(client)
    with app.app_context():
        game = load_game(game_id)
        assert [p.name for p in game.players] == FOUR
        assert (game.set_size, game.rounds, game.start_double, game.hand_size) == (12, 13, 12, 12)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Round 1 of 13" in page
    assert "Ana opens" in page
    assert 'aria-label="Engine 12-12"' in page


def test_home_lists_the_games_of_this_device_only(app, client):
    first = start_game(client, ["Ana", "Ben"])
    second = start_game(client, ["Zed", "Yve"])
    page = client.get("/").get_data(as_text=True)
    assert page.index(f"/games/{second}") < page.index(f"/games/{first}")
    assert "<strong>Zed, Yve</strong>" in page and "<strong>Ana, Ben</strong>" in page
    assert page.count("Mexican Train · double-12 ·") == 2
    assert "in play" in page and "watching" not in page  # this phone scores both
    other = app.test_client()
    assert f"/games/{first}" not in other.get("/").get_data(as_text=True)


def test_setup_errors_show_next_to_the_name_and_keep_what_was_typed(app, client):
    response = client.post("/games/new", data=setup_data(["Ana", " ana ", "Cy"]))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "ana is in the list twice: give each player a different name." in errors_on_page(page)
    assert 'value="Cy"' in page
    with app.app_context():
        assert db.session.execute(select(func.count(Game.id))).scalar_one() == 0


def test_setup_rejects_a_hand_size_that_is_not_a_number(client):
    response = client.post("/games/new", data=setup_data(hand_size="twelve"))
    assert response.status_code == 422
    assert "Enter a whole number, or leave it empty." in response.get_data(as_text=True)


def test_draw_setup_refuses_a_deal_that_leaves_no_tile_to_draw(app, client):
    data = setup_data(game_type="draw", set_size="6", hand_size="7")
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert (
        "With 4 players and 7 tiles each, no tile is left to draw from: deal at most 6 each."
        in errors_on_page(response.get_data(as_text=True))
    )
    with app.app_context():
        assert db.session.execute(select(func.count(Game.id))).scalar_one() == 0


def test_setup_reports_too_many_rounds_next_to_the_field(client):
    response = client.post("/games/new", data=setup_data(start_double=5, rounds=9))
    assert response.status_code == 422
    assert "From 5-5 the game can have 1 to 6 rounds." in errors_on_page(
        response.get_data(as_text=True)
    )


def test_add_player_keeps_names_and_adds_a_row(client):
    data = setup_data(["Ana", "Ben", "", ""])
    del data["submit"]
    data["add_player"] = "Add a player"
    page = client.post("/games/new", data=data).get_data(as_text=True)
    assert page.count('name="players-') == 5
    assert 'value="Ana"' in page and 'value="Ben"' in page


def test_partnerships_pair_players_sitting_opposite(app, client):
    game_id = start_game(client, partners="y")
    with app.app_context():
        setup = game_service.snapshot_of(load_game(game_id)).setup
    assert setup.teams == (("Ana", "Cy"), ("Ben", "Di"))


def test_a_name_is_text_never_markup(client):
    game_id = start_game(client, ["<script>alert(1)</script>", "Ben"])
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# Recording rounds ------------------------------------------------------------------------------


def test_record_a_round_by_numbers(app, client):
    game_id = start_game(client)
    response = client.post(
        f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0)
    )
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Round 1 saved." in page
    assert "Round 2 of 13" in page and "Ben opens" in page
    now = state(app, game_id)
    assert [(line.name, line.total) for line in now.standings] == [
        ("Ana", 0),
        ("Cy", 7),
        ("Ben", 15),
        ("Di", 22),
    ]


def test_record_a_round_by_tiles_sums_the_hand(app, client):
    game_id = start_game(client, blank_scoring="blank_25")
    data = round_data(1, {0: ["6-4", "3-2"], 1: ["0-5", "0-0"], 2: 3}, out=3)
    assert client.post(f"/games/{game_id}/rounds", data=data).status_code == 302
    scores = {line.name: line.total for line in state(app, game_id).standings}
    assert scores == {"Ana": 15, "Ben": 80, "Cy": 3, "Di": 0}


def test_tile_picker_leaves_out_the_engine_and_shows_values(client):
    game_id = start_game(client, blank_scoring="blank_25")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'value="12-11"' in page
    assert 'value="12-12"' not in page
    assert re.search(r'data-value="50"><input[^>]*value="0-0"', page)


def test_blocked_round_scores_everyone(app, client):
    game_id = start_game(client)
    data = round_data(1, {0: 3, 1: 4, 2: 5, 3: 6}, out="blocked")
    assert client.post(f"/games/{game_id}/rounds", data=data).status_code == 302
    assert [line.total for line in state(app, game_id).standings] == [3, 4, 5, 6]
    assert "blocked" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_typo_is_caught_next_to_the_field_and_everything_typed_is_kept(app, client):
    game_id = start_game(client)
    response = client.post(
        f"/games/{game_id}/rounds", data=round_data(1, {1: "15", 2: "1o", 3: "22"}, out=0)
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert errors_on_page(page) == ["Cy: 1o is not a whole number of pips."]
    assert 'value="15"' in page and 'value="1o"' in page and 'value="22"' in page
    assert re.search(r'name="out" value="0"\s+checked', page)
    assert saved_rounds(app, game_id) == 0


def test_a_refused_round_shows_each_error_beside_its_hand_and_keeps_every_tick(app, client):
    game_id = start_game(client, open_train_points="10", strategic_error="y", adjustments="y")
    data = round_data(
        1,
        {1: ["12-11", "6-4"], 2: "1o", 3: 22},
        out=0,
        open_train_3="y",
        strategic_1="y",
        adjust_1="+5",
        reason_1="knocked the boneyard",
    )
    response = client.post(f"/games/{game_id}/rounds", data=data)
    assert response.status_code == 422
    sheet = HandBlocks(response.get_data(as_text=True))
    assert sorted(seat for seat in sheet.inputs if seat is not None) == [0, 1, 2, 3]
    # The typo is told beside Cy's pips, and only there.
    assert sheet.errors[2] == {"pips_2-error": "Cy: 1o is not a whole number of pips."}
    assert all(not sheet.errors[seat] for seat in (0, 1, 3))
    (pips,) = sheet.named(2, "pips_2")
    assert pips["value"] == "1o" and pips["aria-invalid"] == "true"
    assert pips["aria-describedby"] == "pips_2-error"
    assert pips["inputmode"] == "numeric" and pips["pattern"] == "[0-9]*"
    # Ben's tiles stay ticked (and only those), his picker open, his penalties kept.
    assert sheet.checked(1, "tiles_1") == ["12-11", "6-4"]
    assert len(sheet.named(1, "tiles_1")) == 90  # double-12 less the 12-12 engine
    assert sheet.checked(1, "mode_1") == ["tiles"] and sheet.picker_open[1]
    assert not sheet.picker_open[2] and sheet.checked(2, "mode_2") == ["pips"]
    assert sheet.checked(1, "strategic_1") == ["y"]
    assert sheet.named(1, "adjust_1")[0]["value"] == "+5"
    assert sheet.named(1, "reason_1")[0]["value"] == "knocked the boneyard"
    # Ana went out; every hand has its open-train box, only Di's ticked.
    assert [sheet.checked(seat, "out") for seat in range(4)] == [["0"], [], [], []]
    for seat in range(4):
        assert len(sheet.named(seat, f"open_train_{seat}")) == 1
        assert len(sheet.named(seat, f"strategic_{seat}")) == 1
        assert sheet.checked(seat, f"open_train_{seat}") == (["y"] if seat == 3 else [])
    assert sheet.checked(None, "out") == []  # "blocked" is not ticked
    assert "Train still open (+10)" in response.get_data(as_text=True)
    assert saved_rounds(app, game_id) == 0


def test_each_hand_ticks_its_own_tiles_without_javascript(client):
    """The game page carries the tile grid once (game.js copies it into each hand); without the
    script, a hand's "Show the tiles" asks for the sheet again, as typed, with every hand's
    grid and that hand's open. The tile boxes of every hand belong to that hand (a tick in Cy's
    grid is sent as Cy's); a box needs no id (its label holds it), so no two share one."""
    game_id = start_game(client)
    fresh = client.get(f"/games/{game_id}").get_data(as_text=True)
    sheet = HandBlocks(fresh)
    assert fresh.count('<template id="tile-grid">') == 1 and fresh.count('name="__hand__"') == 90
    assert not [seat for seat in range(4) if sheet.named(seat, f"tiles_{seat}")]
    assert fresh.count('name="show_tiles"') == 4  # in <noscript>: one per hand
    shown = client.post(
        f"/games/{game_id}/rounds", data={**round_data(1, {2: 7}, out=0), "show_tiles": "1"}
    )
    assert shown.status_code == 200
    assert saved_rounds_of(client, game_id) == 0
    refused = client.post(
        f"/games/{game_id}/rounds", data=round_data(1, {1: ["12-11", "6-4"], 2: "1o"}, out=0)
    ).get_data(as_text=True)
    for page, ticked, grids in (
        (shown.get_data(as_text=True), {}, range(4)),
        (refused, {1: ["12-11", "6-4"]}, [1]),
    ):
        sheet = HandBlocks(page)
        boxes = [i for seat in range(4) for i in sheet.named(seat, f"tiles_{seat}")]
        assert len(boxes) == len(grids) * 90 and not [box for box in boxes if box.get("id")]
        for seat in grids:
            boxes = sheet.named(seat, f"tiles_{seat}")
            assert [box["value"] for box in boxes][:3] == ["12-11", "12-10", "12-9"]
            assert sheet.checked(seat, f"tiles_{seat}") == ticked.get(seat, [])
            # No box of another hand's name hides in this hand's grid.
            assert not [i for i in sheet.inputs[seat] if "tiles_" in (i.get("name") or "")
                        and i.get("name") != f"tiles_{seat}"]  # fmt: skip
    sheet = HandBlocks(shown.get_data(as_text=True))
    assert [seat for seat in range(4) if sheet.picker_open[seat]] == [1]
    assert sheet.named(2, "pips_2")[0]["value"] == "7" and sheet.checked(0, "out") == ["0"]
    assert '<template id="tile-grid">' not in shown.get_data(as_text=True)


def saved_rounds_of(client, game_id: int) -> int:
    """How many rounds the game page's sheet shows."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    return len(re.findall(r'<tr id="round-[0-9]+"', page))


def test_nobody_out_and_not_blocked_is_refused(app, client):
    game_id = start_game(client)
    response = client.post(f"/games/{game_id}/rounds", data=round_data(1, {0: 1, 1: 2, 2: 3, 3: 4}))
    assert response.status_code == 422
    assert "Nobody went out: mark who went out, or mark the round blocked." in response.get_data(
        as_text=True
    )
    assert saved_rounds(app, game_id) == 0


def test_a_warning_needs_one_confirmation(app, client):
    game_id = start_game(client)
    data = round_data(1, {1: 15, 2: 7, 3: 300}, out=0)
    response = client.post(f"/games/{game_id}/rounds", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Di: 300 is more than the 12 best tiles are worth (244)." in page
    assert 'name="confirm"' in page
    assert saved_rounds(app, game_id) == 0
    data["confirm"] = "y"
    assert client.post(f"/games/{game_id}/rounds", data=data).status_code == 302
    assert saved_rounds(app, game_id) == 1


def second_scorer(app, client, game_id):
    """Another phone at the table, given the edit link."""
    with app.app_context():
        edit_token = db.session.get(Game, game_id).edit_token
    second = app.test_client()
    second.post(f"/e/{edit_token}")
    return second


class ConflictPage(HTMLParser):
    """The conflict page as a reader meets it: each row (player, saved, yours, marked as
    differing or not), the choice buttons and the hidden fields the choice form carries."""

    def __init__(self, html: str):
        super().__init__()
        self.rows: list[list[str]] = []
        self.differs: list[str] = []
        self.choices: dict[str, str] = {}
        self.hidden: list[tuple[str, str]] = []
        self.action = ""
        self._cell: list[str] | None = None
        self._row_differs = False
        self._button: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "tr":
            self.rows.append([])
            self._row_differs = "differs" in (attributes.get("class") or "")
        elif tag in ("td", "th") and self.rows:
            self._cell = []
        elif tag == "form" and "conflict-choices" in (attributes.get("class") or ""):
            self.action = attributes["action"]
        elif tag == "input" and attributes.get("type") == "hidden":
            self.hidden.append((attributes["name"], attributes.get("value") or ""))
        elif tag == "button" and attributes.get("name") == "choice":
            self._button = attributes["value"]
            self.choices[self._button] = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self.rows and self._row_differs:
            self.differs.append(self.rows[-1][0].split()[0])
        elif tag == "button":
            self._button = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._button is not None:
            self.choices[self._button] += data.strip()

    def choose(self, client, choice: str):
        """Press one of the choice buttons, as the browser would send the form."""
        data: dict[str, list[str]] = {}
        for name, value in self.hidden:
            data.setdefault(name, []).append(value)
        data["choice"] = [choice]
        return client.post(self.action, data=data)


def lost_race(app, client):
    """Two phones record round 1; the second sees the conflict page. (page, phone, game id)"""
    game_id = start_game(client)
    second = second_scorer(app, client, game_id)
    first_entry = round_data(1, {1: 15, 2: 7, 3: 22}, out=0)
    second_entry = round_data(1, {1: 16, 2: 7, 3: 23}, out=0)
    assert client.post(f"/games/{game_id}/rounds", data=first_entry).status_code == 302
    response = second.post(f"/games/{game_id}/rounds", data=second_entry)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Round 1 was saved from another phone" in html
    page = ConflictPage(html)
    assert page.rows[1:] == [
        ["Ana", "went out", "went out"],
        ["Ben ≠ differs", "15", "16"],
        ["Cy", "7", "7"],
        ["Di ≠ differs", "22", "23"],
    ]
    assert page.differs == ["Ben", "Di"]
    assert page.choices == {
        "keep": "Keep the saved round (forget mine)",
        "replace": "Replace round 1 with mine",
        "next": "Record mine as round 2",
    }
    # Nothing typed was moved into the next round's form: there is no form on this page.
    assert "Record round 2" not in html and 'id="round-form"' not in html
    assert saved_rounds(app, game_id) == 1
    assert [line.total for line in state(app, game_id).standings] == [0, 7, 15, 22]
    return page, second, game_id


def test_two_phones_saving_the_same_round_see_both_and_choose(app, client):
    page, _second, _game_id = lost_race(app, client)
    assert page.action.endswith("/rounds/1/conflict")


def test_keeping_the_saved_round_forgets_what_this_phone_typed(app, client):
    page, second, game_id = lost_race(app, client)
    response = page.choose(second, "keep")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/games/{game_id}#record")
    assert saved_rounds(app, game_id) == 1
    assert [line.total for line in state(app, game_id).standings] == [0, 7, 15, 22]
    followed = second.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Round 1 stays as the other phone saved it" in followed


def test_replacing_the_saved_round_is_an_edit_in_the_history(app, client):
    page, second, game_id = lost_race(app, client)
    response = page.choose(second, "replace")
    assert response.status_code == 302
    assert saved_rounds(app, game_id) == 1
    totals = {line.name: line.total for line in state(app, game_id).standings}
    assert totals == {"Ana": 0, "Ben": 16, "Cy": 7, "Di": 23}
    history = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert "Round 1, Ben: 15 → 16" in history


def test_recording_mine_as_the_next_round(app, client):
    page, second, game_id = lost_race(app, client)
    response = page.choose(second, "next")
    assert response.status_code == 302
    assert saved_rounds(app, game_id) == 2
    totals = {line.name: line.total for line in state(app, game_id).standings}
    assert totals == {"Ana": 0, "Ben": 31, "Cy": 14, "Di": 45}


def test_a_replacement_pinned_to_an_old_version_is_a_new_conflict(app, client):
    page, second, game_id = lost_race(app, client)
    with app.app_context():
        version = db.session.execute(select(Round.version)).scalar_one()
    correction = round_data(1, {1: 40, 2: 7, 3: 22}, out=0, round_version=str(version))
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=correction).status_code == 302
    response = page.choose(second, "replace")
    assert response.status_code == 409
    again = ConflictPage(response.get_data(as_text=True))
    assert again.rows[2] == ["Ben ≠ differs", "40", "16"]
    assert {line.name: line.total for line in state(app, game_id).standings}["Ben"] == 40


def test_a_finished_game_offers_no_next_round(app, client):
    game_id = start_game(client, ["Ana", "Ben"], rounds=1)
    second = second_scorer(app, client, game_id)
    assert client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 5}, out=0)).status_code
    response = second.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 6}, out=0))
    assert response.status_code == 409
    page = ConflictPage(response.get_data(as_text=True))
    assert set(page.choices) == {"keep", "replace"}
    assert page.choose(second, "next").status_code == 302  # forged: refused, nothing saved
    assert saved_rounds(app, game_id) == 1


def test_another_device_cannot_see_or_score_the_game(app, client):
    game_id = start_game(client)
    stranger = app.test_client()
    assert stranger.get(f"/games/{game_id}").status_code == 404
    data = round_data(1, {1: 1, 2: 2, 3: 3}, out=0)
    assert stranger.post(f"/games/{game_id}/rounds", data=data).status_code == 404
    assert saved_rounds(app, game_id) == 0


def test_edit_link_lets_another_phone_score(app, client):
    game_id = start_game(client)
    with app.app_context():
        edit_token = db.session.get(Game, game_id).edit_token
    helper = app.test_client()
    page = helper.get(f"/e/{edit_token}")
    assert page.status_code == 200
    assert "Score this game on this phone" in page.get_data(as_text=True)
    data = round_data(1, {1: 1, 2: 2, 3: 3}, out=0)
    assert helper.post(f"/games/{game_id}/rounds", data=data).status_code == 404  # not yet
    response = helper.post(f"/e/{edit_token}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}"
    data = round_data(1, {1: 1, 2: 2, 3: 3}, out=0)
    assert helper.post(f"/games/{game_id}/rounds", data=data).status_code == 302
    assert saved_rounds(app, game_id) == 1


def test_a_wrong_edit_link_is_not_found(client):
    start_game(client)
    assert client.get("/e/not-a-token").status_code == 404
    assert client.post("/e/not-a-token").status_code == 404


def test_the_edit_link_takes_a_phone_that_already_scores_straight_to_the_game(client, app):
    game_id = start_game(client)
    with app.app_context():
        edit_token = db.session.get(Game, game_id).edit_token
    response = client.get(f"/e/{edit_token}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}"


# Correcting, undoing, ending -------------------------------------------------------------------


def test_edit_an_earlier_round_and_see_it_in_the_history(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {0: 5, 2: 7, 3: 9}, out=1))
    form = client.get(f"/games/{game_id}/rounds/1/edit").get_data(as_text=True)
    assert 'value="15"' in form
    version = re.search(r'name="round_version" type="hidden" value="(\d+)"', form).group(1)
    data = round_data(1, {1: 51, 2: 7, 3: 22}, out=0, round_version=version)
    response = client.post(f"/games/{game_id}/rounds/1/edit", data=data)
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Round 1, Ben: 15 → 51" in page
    assert {line.name: line.total for line in state(app, game_id).standings}["Ben"] == 51


def test_an_edit_made_meanwhile_on_another_phone_is_shown_not_overwritten(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    other = second_scorer(app, client, game_id)
    data_other = round_data(1, {1: 16, 2: 7, 3: 22}, out=0, round_version="1")
    data_mine = round_data(1, {1: 17, 2: 7, 3: 22}, out=0, round_version="1")
    assert other.post(f"/games/{game_id}/rounds/1/edit", data=data_other).status_code == 302
    response = client.post(f"/games/{game_id}/rounds/1/edit", data=data_mine)
    assert response.status_code == 409
    page = ConflictPage(response.get_data(as_text=True))
    assert "Round 1 was changed on another phone" in response.get_data(as_text=True)
    assert page.rows[2] == ["Ben ≠ differs", "16", "17"]
    assert page.differs == ["Ben"]
    assert set(page.choices) == {"keep", "replace"}  # a correction is not a new round
    assert {line.name: line.total for line in state(app, game_id).standings}["Ben"] == 16
    assert page.choose(client, "replace").status_code == 302
    assert {line.name: line.total for line in state(app, game_id).standings}["Ben"] == 17


def test_undo_asks_first_and_shows_what_goes(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    response = client.post(f"/games/{game_id}/undo", data={"number": "1"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Undo round 1?" in page and "Ben: 15" in page
    assert 'name="confirm" value="yes"' in page and "Yes, undo round 1" in page
    assert f'href="/games/{game_id}"' in page  # Cancel
    assert saved_rounds(app, game_id) == 1


def test_undo_the_last_round(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    response = client.post(f"/games/{game_id}/undo", data={"number": "1", "confirm": "yes"})
    assert response.status_code == 302
    assert saved_rounds(app, game_id) == 0
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Round 1 undone." in page
    assert "Round 1 undone: Ben had 15" in page
    with app.app_context():
        actions = db.session.execute(select(Change.action)).scalars().all()
    assert "undone" in actions


def test_undo_of_a_round_that_is_no_longer_last_does_nothing(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {0: 1, 2: 2, 3: 3}, out=1))
    response = client.post(
        f"/games/{game_id}/undo", data={"number": "1", "confirm": "yes"}, follow_redirects=True
    )
    assert "nothing was undone" in response.get_data(as_text=True)
    assert saved_rounds(app, game_id) == 2


def test_the_game_ends_after_its_last_round_with_final_standings(app, client):
    game_id = start_game(client, ["Ana", "Ben"], rounds=2)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 20}, out=0))
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {0: 20}, out=1))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Final standings" in page
    assert "Save round" not in page
    assert "shared: same total, zero rounds and lowest round" in page
    late = client.post(f"/games/{game_id}/rounds", data=round_data(3, {1: 1}, out=0))
    assert late.status_code == 302
    assert saved_rounds(app, game_id) == 2


def test_ties_are_explained_in_words(client):
    game_id = start_game(client, ["Ana", "Ben", "Cy"], rounds=3)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 5, 2: 30}, out=0))
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {0: 12, 2: 30}, out=1))
    client.post(f"/games/{game_id}/rounds", data=round_data(3, {0: 28, 1: 35}, out=2))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "tie broken by the lowest round other than zero (5)" in page
    assert "Winner: Ben" in page


def test_end_the_game_now(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    first = client.post(f"/games/{game_id}/end")
    assert first.status_code == 200 and "End the game now?" in first.get_data(as_text=True)
    assert not state(app, game_id).finished
    assert client.post(f"/games/{game_id}/end", data={"confirm": "yes"}).status_code == 302
    assert state(app, game_id).finished
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Final standings" in page and "Winner: Ana" in page


def test_the_draw_game_goes_to_the_target(app, client):
    game_id = start_game(client, ["Ana", "Ben", "Cy"], game_type="draw", target=50)
    data = round_data(1, {0: 15, 1: 19, 2: 22}, out="blocked")
    assert client.post(f"/games/{game_id}/rounds", data=data).status_code == 302
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Cy opens" in page  # the loser of the hand opens the next
    data = round_data(2, {1: 20, 2: 25}, out=0)
    client.post(f"/games/{game_id}/rounds", data=data)
    now = state(app, game_id)
    assert now.finished and now.winners == ("Ana",)
    assert now.standings[0].total == 56


# Sharing and printing --------------------------------------------------------------------------


def test_share_link_is_read_only_and_revalidates(app, client):
    game_id = start_game(client)
    with app.app_context():
        token = db.session.get(Game, game_id).view_token
    viewer = app.test_client()
    response = viewer.get(f"/s/{token}")
    assert response.status_code == 200
    assert "Save round" not in response.get_data(as_text=True)
    live = viewer.get(f"/s/{token}/live")
    etag = live.headers["ETag"]
    assert viewer.get(f"/s/{token}/live", headers={"If-None-Match": etag}).status_code == 304
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    fresh = viewer.get(f"/s/{token}/live", headers={"If-None-Match": etag})
    assert fresh.status_code == 200
    assert ">22<" in fresh.get_data(as_text=True).replace("\n", "").replace(" ", "")
    assert viewer.get("/s/wrong-token").status_code == 404


def test_print_view_has_standings_and_sheet(client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    page = client.get(f"/games/{game_id}/print").get_data(as_text=True)
    assert "Standings" in page and "Score sheet" in page
    assert "print.css" in page


def test_empty_sheet_lists_every_engine_for_paper(client):
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}/print?blank=1").get_data(as_text=True)
    for engine in range(13):
        assert f"{engine}-{engine}" in page
    assert page.count('<tr class="blank-row"><th scope="row" class="col-round">') == 13
    assert '<tr class="totals blank-row"><th scope="row">Total</th>' in page  # to add up by hand


@pytest.mark.parametrize("path", ["/games/new"])
def test_csrf_is_enforced_on_forms(app, path):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    response = client.post(path, data=setup_data())
    assert response.status_code == 400
    assert "The form expired or came from another site" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(select(func.count(Game.id))).scalar_one() == 0


def test_a_finished_game_keeps_each_players_final_figures(app, client):
    game_id = start_game(client, ["Ana", "Ben", "Cy"], rounds=2)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 10, 2: 0}, out=0))
    with app.app_context():
        assert [p.place for p in load_game(game_id).players] == [None] * 3
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {0: 10, 2: 20}, out=1))
    with app.app_context():
        players = load_game(game_id).players
        figures = [
            (p.name, p.place, p.place_shared, p.total, p.rounds_played, p.zero_rounds)
            for p in players
        ]
    # Ana and Ben both 10 with one zero round and lowest non-zero 10: they share 1st.
    assert figures == [
        ("Ana", 1, 2, 10, 2, 1),
        ("Ben", 1, 2, 10, 2, 1),
        ("Cy", 3, 1, 20, 2, 1),
    ]
    client.post(f"/games/{game_id}/undo", data={"number": "2", "confirm": "yes"})
    with app.app_context():
        assert [p.total for p in load_game(game_id).players] == [None] * 3


def test_the_game_page_shows_the_latest_changes_and_links_the_whole_history(app, client):
    game_id = start_game(client)
    for number in range(1, 5):
        client.post(
            f"/games/{game_id}/rounds", data=round_data(number, {1: number, 2: 2, 3: 3}, out=0)
        )
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert page.count('<time datetime="') == 10  # four rounds make 17 lines; the page shows 10
    assert "Game created: Ana, Ben, Cy, Di" not in page
    full = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert full.count('<time datetime="') == 17
    assert "Game created: Ana, Ben, Cy, Di" in full
    assert app.test_client().get(f"/games/{game_id}/history").status_code == 404


def test_a_phone_that_keeps_the_shared_game_finds_it_on_its_home_page(app, client):
    game_id = start_game(client, ["Ana", "Ben"])
    with app.app_context():
        token = db.session.get(Game, game_id).view_token
    watcher = app.test_client()
    assert "Keep this game on my phone" in watcher.get(f"/s/{token}").get_data(as_text=True)
    assert f"/games/{game_id}" not in watcher.get("/").get_data(as_text=True)  # only opened
    response = watcher.post(f"/s/{token}/keep")
    assert response.status_code == 302 and response.headers["Location"] == f"/s/{token}"
    page = watcher.get(f"/s/{token}").get_data(as_text=True)
    assert "now on your phone&#39;s home page" in page
    assert "Keep this game on my phone" not in page
    home = watcher.get("/").get_data(as_text=True)
    assert f"/games/{game_id}" in home and "watching" in home
    assert watcher.get(f"/games/{game_id}").status_code == 200  # to watch
    data = round_data(1, {1: 5}, out=0)
    assert watcher.post(f"/games/{game_id}/rounds", data=data).status_code == 403


# Ending by mistake, reopening -------------------------------------------------------------------


def test_a_game_ended_by_mistake_is_reopened(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    client.post(f"/games/{game_id}/end", data={"confirm": "yes"})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Reopen the game" in page and "End the game now" not in page
    with app.app_context():
        assert load_game(game_id).players[0].place == 1
    response = client.post(f"/games/{game_id}/reopen")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("#record")
    assert not state(app, game_id).finished
    with app.app_context():
        game = load_game(game_id)
        assert (game.ended_early, game.finished_at) == (False, None)
        assert [p.place for p in game.players] == [None] * 4
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The game is open again." in page
    assert "Record round 2" in page and "Reopen the game" not in page
    assert "Game reopened: play goes on" in page and "Game ended by the table" in page


def test_a_game_its_rounds_finished_is_not_reopened(app, client):
    game_id = start_game(client, ["Ana", "Ben"], rounds=1)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 5}, out=0))
    assert "Reopen the game" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    response = client.post(f"/games/{game_id}/reopen", follow_redirects=True)
    assert "Every round is played: undo the last round" in response.get_data(as_text=True)
    assert state(app, game_id).finished


def test_undo_after_an_early_end_plays_on(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    client.post(f"/games/{game_id}/end", data={"confirm": "yes"})
    client.post(f"/games/{game_id}/undo", data={"number": "1", "confirm": "yes"})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Game over" not in page
    assert "Record round 1" in page
    assert not state(app, game_id).finished


def test_end_and_undo_never_act_on_the_first_post(app, client):
    game_id = start_game(client)
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0))
    for path, data in (("end", {}), ("undo", {"number": "1"}), ("end", {"confirm": "no"})):
        assert client.post(f"/games/{game_id}/{path}", data=data).status_code == 200
    assert saved_rounds(app, game_id) == 1 and not state(app, game_id).finished


# A round in seconds -----------------------------------------------------------------------------


def test_after_a_save_the_page_opens_at_the_form_with_the_message_beside_it(client):
    game_id = start_game(client)
    response = client.post(
        f"/games/{game_id}/rounds", data=round_data(1, {1: 15, 2: 7, 3: 22}, out=0)
    )
    assert response.headers["Location"].endswith(f"/games/{game_id}#record")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    record = page.index('id="record"')
    assert record < page.index("Round 1 saved.") < page.index("Record round 2")


def test_a_refused_round_opens_at_a_summary_linking_each_field(client):
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'action="/games/{game_id}/rounds#record"' in page
    response = client.post(
        f"/games/{game_id}/rounds", data=round_data(1, {1: "abc", 2: 7, 3: "-4"}, out=0)
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    summary = page[page.index('id="round-errors"') : page.index('id="hand_0"')]
    links = re.findall(r'<a href="#(\w+)">([^<]*)</a>', summary)
    assert [target for target, _text in links] == ["pips_1", "pips_3"]
    assert all("Ben" in text for target, text in links if target == "pips_1")


def test_a_table_that_counted_tiles_gets_the_tile_picker_again(app, client):
    game_id = start_game(client)
    client.post(
        f"/games/{game_id}/rounds", data=round_data(1, {1: ["6-4"], 2: ["3-2"], 3: 9}, out=0)
    )
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-open-tiles="1"' in page  # round.js opens the pickers
    blocks = HandBlocks(page)  # without the script the form starts on numbers, as always
    assert [blocks.checked(seat, f"mode_{seat}") for seat in range(4)] == [["pips"]] * 4
    client.post(f"/games/{game_id}/rounds", data=round_data(2, {0: 3, 2: 4, 3: 9}, out=1))
    assert 'data-open-tiles="1"' not in client.get(f"/games/{game_id}").get_data(as_text=True)


@pytest.mark.parametrize(
    ("game_type", "message"),
    [("mexican_train", "Game on! Round 1 is ready."), ("draw", "Game on! Hand 1 is ready.")],
)
def test_the_welcome_names_the_first_round_as_the_page_does(client, game_type, message):
    response = client.post(
        "/games/new", data=setup_data(game_type=game_type, set_size="6"), follow_redirects=True
    )
    page = unescape(response.get_data(as_text=True))
    assert message in page
    assert ("Hand 1" in page) == (game_type == "draw")
