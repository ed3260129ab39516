"""templates/_macros.html: render_field ties label, input and error together."""

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
