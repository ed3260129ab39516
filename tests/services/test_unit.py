"""One unit of work for every service write (services/unit.py): a write is all or nothing, and
nothing in the app commits outside a unit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sqlalchemy import func, select

import scorekeeper
from scorekeeper.extensions import db
from scorekeeper.models import Club, RosterPlayer, User
from scorekeeper.services import clubs as club_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services.unit import unit_of_work
from tests.clubs.helpers import make_user

PACKAGE = Path(scorekeeper.__file__).parent
# The units of work: the generic one, and a game's (pinned to the version it read).
UNITS = {"services/unit.py", "services/games/unit.py"}


def commits_in(path: Path) -> list[int]:
    """Lines of every `<session>.commit()` call in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "commit"
        and "session" in ast.unparse(node.func.value)
    ]


def test_nothing_commits_outside_a_unit_of_work():
    found = {
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in PACKAGE.rglob("*.py")
        if str(path.relative_to(PACKAGE)) not in UNITS
        for line in commits_in(path)
    }
    assert found == set(), "commit or roll back through services/unit.py: " + ", ".join(
        sorted(found)
    )


def test_the_check_sees_a_bare_commit(tmp_path):
    bare = tmp_path / "bare.py"
    bare.write_text("def f():\n    x = 1\n    db.session.commit()\n")
    assert commits_in(bare) == [3]


def count(model) -> int:
    return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def test_a_write_that_fails_half_way_leaves_nothing_behind(app):
    """A club created and given a roster entry inside one unit that then fails: neither is
    saved, although each service's own write succeeded (the inner units joined the outer)."""
    owner_id = make_user(app, "Olive Owner")
    with app.app_context():
        owner = db.session.get_one(User, owner_id)
        with pytest.raises(RuntimeError), unit_of_work():
            club = club_service.create_club(owner, "Thursday Trains")
            roster_service.add_roster_player(club, "Ana")
            raise RuntimeError("the mail server fell over")
        assert (count(Club), count(RosterPlayer)) == (0, 0)


def test_a_unit_commits_when_it_ends(app):
    owner_id = make_user(app, "Olive Owner")
    with app.app_context():
        with unit_of_work():
            club = club_service.create_club(db.session.get_one(User, owner_id), "Trains")
            roster_service.add_roster_player(club, "Ana")
        db.session.rollback()  # a rollback now cannot undo what the unit committed
        assert (count(Club), count(RosterPlayer)) == (1, 1)


def test_a_failed_sign_in_is_counted_on_its_own_never_inside_another_unit(app):
    """The count of a failed sign-in must outlive the refusal: it commits alone, and refuses to
    join a unit whose rollback would take it back (a free guess at the password)."""
    from scorekeeper.models import SignInAttempt
    from scorekeeper.services import accounts as account_service
    from scorekeeper.services.unit import NotAlone

    make_user(app, "Olive Owner")
    with app.app_context():
        with pytest.raises(account_service.BadCredentials):
            account_service.authenticate("olive.owner@example.com", "wrong", "10.0.0.1")
        assert count(SignInAttempt) == 1
        with pytest.raises(NotAlone), unit_of_work():
            account_service.authenticate("olive.owner@example.com", "wrong", "10.0.0.1")
        assert count(SignInAttempt) == 1
