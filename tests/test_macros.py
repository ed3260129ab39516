"""templates/_macros.html: render_field ties label, input and error together; the engine's
domino (games/_macros.html) draws its pips."""

import re

import pytest
from flask import render_template_string
from flask_wtf import FlaskForm
from wtforms import IntegerField, StringField
from wtforms.validators import DataRequired

MACRO = "{% from '_macros.html' import render_field %}"


class ScoreForm(FlaskForm):
    name = StringField("Player", validators=[DataRequired()])
    points = IntegerField("Points")


def test_render_field_shows_label_and_input(app):
    with app.test_request_context("/"):
        form = ScoreForm()
        html = render_template_string(
            MACRO + "{{ render_field(form.name, autocomplete='off') }}", form=form
        )
    assert '<label class="label" for="name">Player</label>' in html
    assert 'autocomplete="off"' in html
    assert "aria-describedby" not in html


def test_render_field_numeric_and_error(app):
    with app.test_request_context("/", method="POST", data={"name": "", "points": "x"}):
        form = ScoreForm()
        assert not form.validate()
        html = render_template_string(
            MACRO + "{{ render_field(form.points, numeric=true, hint='Pips left') }}", form=form
        )
    assert 'inputmode="numeric"' in html
    assert 'pattern="[0-9]*"' in html
    assert 'aria-describedby="points-hint points-error"' in html
    assert 'aria-invalid="true"' in html
    assert '<p class="error" id="points-error">' in html


def _domino(app, high: int, low: int, label: str) -> str:
    with app.test_request_context("/"):
        return render_template_string(
            "{% from 'games/_macros.html' import domino %}{{ domino(high, low, label) }}",
            high=high,
            low=low,
            label=label,
        )


@pytest.mark.parametrize(("high", "low"), [(0, 0), (6, 6), (9, 3), (12, 12), (18, 17)])
def test_the_engine_domino_shows_each_half_s_pips(app, high, low):
    """games/_macros.html's domino: as many pips in each half as it counts, inside its half
    (the top half holds `high`), and the label screen readers say."""
    svg = _domino(app, high, low, "Engine <12>")
    assert svg.startswith('<svg class="domino" viewBox="0 0 60 120"')
    assert 'role="img" aria-label="Engine &lt;12&gt;"' in svg
    pips = [
        (float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg)
    ]
    top = [p for p in pips if p[1] < 60]
    bottom = [p for p in pips if p[1] > 60]
    assert (len(top), len(bottom)) == (high, low)
    assert all(0 < x < 60 for x, _y in pips)
    assert all(4 < y < 116 for _x, y in pips)
    assert len(set(pips)) == len(pips)  # no pip drawn over another
