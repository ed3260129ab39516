"""Account forms: sign up, sign in, change or reset a password, change the email, API tokens,
the language.

Forms only check what was typed (present, long enough, the same twice); whether the email is
free or the password right is the accounts service's to say.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length, Regexp

from scorekeeper.forms import language_field
from scorekeeper.services.accounts import PASSWORD_MAX, PASSWORD_MIN

NAME_MAX = 80
EMAIL_MAX = 254
TOKEN_NAME_MAX = 80
# Something@something.something, no spaces: enough to catch most typos (the confirmation mail
# catches the rest).
EMAIL_SHAPE = r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+\Z"
# Control characters (NUL above all, which PostgreSQL refuses) have no place in a name.
PRINTABLE = r"^[^\x00-\x1f\x7f]*\Z"


def _strip(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


def _new_password(label):
    return PasswordField(
        label,
        validators=[
            DataRequired(message=_l("Choose a password.")),
            Length(
                min=PASSWORD_MIN,
                max=PASSWORD_MAX,
                message=_l(
                    "Use at least %(min)s characters (at most %(max)s).",
                    min=PASSWORD_MIN,
                    max=PASSWORD_MAX,
                ),
            ),
        ],
    )


def _confirm_password(label, field: str):
    return PasswordField(
        label,
        validators=[
            DataRequired(message=_l("Type the password again.")),
            EqualTo(field, message=_l("The two passwords are not the same.")),
        ],
    )


def _current_password():
    return PasswordField(
        _l("Current password"),
        validators=[
            DataRequired(message=_l("Enter your current password.")),
            Length(max=PASSWORD_MAX, message=_l("That password is too long.")),
        ],
    )


def _email():
    return EmailField(
        _l("Email"),
        filters=[_strip],
        validators=[
            DataRequired(message=_l("Enter your email address.")),
            Length(max=EMAIL_MAX, message=_l("That email address is too long.")),
            Regexp(EMAIL_SHAPE, message=_l("Enter an email address like ana@example.com.")),
        ],
    )


class SignUpForm(FlaskForm):
    """A new account: a name, an email and a password typed twice."""

    name = StringField(
        _l("Your name"),
        filters=[_strip],
        validators=[
            DataRequired(message=_l("Enter your name.")),
            Length(max=NAME_MAX, message=_l("Use at most %(max)s characters.", max=NAME_MAX)),
            Regexp(PRINTABLE, message=_l("Use letters, digits and punctuation only.")),
        ],
    )
    email = _email()
    password = _new_password(_l("Password"))
    confirm = _confirm_password(_l("Password again"), "password")
    submit = SubmitField(_l("Create account"))


class SignInForm(FlaskForm):
    """Email and password, and whether this browser should keep the account signed in."""

    email = _email()
    password = PasswordField(
        _l("Password"),
        validators=[
            DataRequired(message=_l("Enter your password.")),
            Length(max=PASSWORD_MAX, message=_l("That password is too long.")),
        ],
    )
    remember = BooleanField(_l("Keep me signed in on this device"))
    submit = SubmitField(_l("Sign in"))


class ChangePasswordForm(FlaskForm):
    """The current password, and the new one typed twice."""

    current = _current_password()
    password = _new_password(_l("New password"))
    confirm = _confirm_password(_l("New password again"), "password")
    submit = SubmitField(_l("Change password"))


class NewTokenForm(FlaskForm):
    """A name for a new personal API token, to tell tokens apart later."""

    name = StringField(
        _l("Token name"),
        filters=[_strip],
        validators=[
            DataRequired(message=_l("Name the token, like “Score app on my tablet”.")),
            Length(
                max=TOKEN_NAME_MAX,
                message=_l("Use at most %(max)s characters.", max=TOKEN_NAME_MAX),
            ),
            Regexp(PRINTABLE, message=_l("Use letters, digits and punctuation only.")),
        ],
    )
    submit = SubmitField(_l("Create token"))


class ForgotPasswordForm(FlaskForm):
    """The address to send a reset link to."""

    email = _email()
    submit = SubmitField(_l("Send me a link"))


class ResetPasswordForm(FlaskForm):
    """A new password, typed twice, set through a reset link."""

    password = _new_password(_l("New password"))
    confirm = _confirm_password(_l("New password again"), "password")
    submit = SubmitField(_l("Set new password"))


class ChangeEmailForm(FlaskForm):
    """A new email address, and the current password to prove it is the account's owner."""

    email = _email()
    current = _current_password()
    submit = SubmitField(_l("Change email"))


class LanguageForm(FlaskForm):
    """The language the account reads in, on every device it signs in on."""

    locale = language_field(_l("Language"), _l("As each device is set"))
    submit = SubmitField(_l("Save language"))
