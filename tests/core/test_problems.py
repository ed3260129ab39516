"""Problems and RuleError: how a broken rule reads in English and travels to the web layer."""

import pytest

from scorekeeper.core import N_, Problem, RuleError


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1212, "1,212"),
        (-1212, "-1,212"),
        (1068, "1,068"),
        (999, "999"),
        (1000000, "1,000,000"),
        (True, "True"),  # a flag is not a number to group
        ("1212", "1212"),  # typed text is shown as typed
    ],
)
def test_message_groups_thousands_in_whole_numbers_only(value, shown):
    assert Problem("code", "got %(value)s", {"value": value}).message == f"got {shown}"


def test_problem_reads_as_its_message_and_defaults_to_an_error_about_the_round():
    problem = Problem("nobody_out", N_("Nobody went out."))
    assert str(problem) == "Nobody went out."
    assert problem.severity == "error"
    assert problem.player is None
    assert problem.field is None


def test_n_marks_a_message_without_changing_it():
    # The core never translates: the web layer looks the English template up in its catalogue.
    assert N_("%(player)s: say why.") == "%(player)s: say why."


def test_rule_error_carries_one_problem():
    problem = Problem("set_unsupported", "Double-7 sets are not supported.")
    error = RuleError(problem)
    assert error.problems == [problem]
    assert str(error) == "Double-7 sets are not supported."


def test_rule_error_carries_every_problem_and_joins_their_messages():
    first = Problem("a", "%(name)s needs a name.", {"name": "Player 2"})
    second = Problem("b", "Too many: %(count)s.", {"count": 2500})
    error = RuleError([first, second])
    assert error.problems == [first, second]
    assert str(error) == "Player 2 needs a name.; Too many: 2,500."


def test_rule_error_is_a_value_error_so_generic_handlers_catch_it():
    with pytest.raises(ValueError, match="bad"):
        raise RuleError(Problem("x", "bad"))
