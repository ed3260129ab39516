"""Account pages: sign up, sign in, sign out, the account page, password and API tokens.

Views are thin: read the form, call one accounts service, flash, redirect. No account is
needed to play a quick game; these pages are for clubs and the API.
"""

from __future__ import annotations

from datetime import timedelta

from flask import (
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required, login_user, logout_user
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.accounts import bp
from scorekeeper.accounts.forms import (
    ChangePasswordForm,
    LanguageForm,
    NewTokenForm,
    SignInForm,
    SignUpForm,
)
from scorekeeper.accounts.mails import send_account_exists, send_verification
from scorekeeper.i18n import LANGUAGE_COOKIE, remember_language
from scorekeeper.models import User
from scorekeeper.services import accounts as account_service
from scorekeeper.web import limits
from scorekeeper.web.responses import safe_next

# A browser that signed in to an account keeps a signed mark of it for a year.
DEVICE_COOKIE = "known_device"
DEVICE_COOKIE_LIFETIME = timedelta(days=365)
# Ids are 32-bit integers: a larger one in a URL is simply not found.
TOKEN = "<id:token_id>"


def _next_url() -> str | None:
    return safe_next(request.args.get("next"))


def me() -> User:
    """The signed-in account itself (not Flask-Login's proxy), for the services."""
    return current_user._get_current_object()


def remembered() -> bool:
    """True if this browser holds a remember-me cookie (a new one replaces it after a change)."""
    return current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token") in request.cookies


def sign_in_browser(user: User, remember: bool) -> None:
    """Sign this browser in under a new server-side session (see account_service.load_user)."""
    session_id = account_service.start_session(user)
    login_user(user, remember=remember)
    # Flask-Login keeps user.get_id() ('id:version'); the session's own key goes with it, into
    # the session cookie and the remember-me cookie alike.
    session["_user_id"] = session_id


def _device_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=DEVICE_COOKIE)


def known_device() -> int | None:
    """The account this browser signed in to before (its signed mark), if any: its sign-ins
    skip the account's growing delay that guessers elsewhere cause."""
    try:
        user_id = _device_signer().loads(request.cookies.get(DEVICE_COOKIE, ""))
    except BadSignature:
        return None
    return user_id if isinstance(user_id, int) else None


def mark_known_device(response: BaseResponse, user: User) -> BaseResponse:
    """Mark this browser as one the account signed in on (a signed id, sent to /sign-in only)."""
    response.set_cookie(
        DEVICE_COOKIE,
        _device_signer().dumps(user.id),
        max_age=int(DEVICE_COOKIE_LIFETIME.total_seconds()),
        path=url_for("accounts.sign_in"),
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        httponly=True,
        samesite="Lax",
    )
    return response


def _throttled(template: str, form, message: str, error: account_service.TooManyAttempts):
    response = make_response(_page(template, 429, form=form, general=[message]))
    response.headers["Retry-After"] = str(error.seconds)
    return response


def password_refused(
    template: str, form, error: account_service.TooManyAttempts | account_service.WrongPassword
) -> ResponseReturnValue:
    """`template` again with the reason beside the current-password field: too many wrong
    passwords (429 with Retry-After) or a wrong one (422). For every page that asks for it."""
    if isinstance(error, account_service.TooManyAttempts):
        form.current.errors = [
            _(
                "Too many wrong passwords. Wait %(minutes)s minutes, then try again.",
                minutes=error.minutes,
            )
        ]
        response = make_response(render_template(template, form=form), 429)
        response.headers["Retry-After"] = str(error.seconds)
        return response
    form.current.errors = [_("That is not your current password.")]
    return render_template(template, form=form), 422


def _page(template: str, status: int = 200, **context) -> ResponseReturnValue:
    return render_template(template, next_url=_next_url(), **context), status


# Signing up, in and out ------------------------------------------------------------------------


@bp.route("/sign-up", methods=["GET", "POST"])
@limits.sign_ups
def sign_up() -> ResponseReturnValue:
    """Create an account (name, email, password twice), then send the visitor to sign in.
    A taken address gets the same answer (its owner a mail instead), so this page tells
    nobody who has an account."""
    if current_user.is_authenticated:
        return redirect(_next_url() or url_for("accounts.account"))
    form = SignUpForm()
    if not form.validate_on_submit():
        return _page("accounts/sign_up.html", 422 if form.is_submitted() else 200, form=form)
    try:
        user = account_service.create_user(
            form.name.data or "", form.email.data, form.password.data
        )
    except account_service.EmailTaken:
        # Said to nobody but the address's owner: the answer is the same as for a new address.
        send_account_exists(form.email.data)
    else:
        send_verification(user)
    flash(
        _(
            "Thank you. We sent a mail to %(email)s. If the address is new here, your account "
            "is ready: sign in below, and follow the mailed link to confirm the address (needed "
            "to join a club). If it already had an account, the mail says how to get back in.",
            email=account_service.normalise_email(form.email.data),
        ),
        "success",
    )
    return redirect(url_for("accounts.sign_in", next=_next_url()))


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    """Sign in with email and password, then go back where the visitor was heading."""
    if current_user.is_authenticated and request.method == "GET":
        return redirect(_next_url() or url_for("main.index"))
    form = SignInForm()
    if not form.validate_on_submit():
        return _page("accounts/sign_in.html", 422 if form.is_submitted() else 200, form=form)
    try:
        user = account_service.authenticate(
            form.email.data, form.password.data or "", request.remote_addr, known_device()
        )
    except account_service.TooManyAttempts as error:
        if error.seconds < 120:
            message = ngettext(
                "Too many failed sign-ins. Wait %(num)d second, then try again.",
                "Too many failed sign-ins. Wait %(num)d seconds, then try again.",
                error.seconds,
            )
        else:
            message = _(
                "Too many failed sign-ins. Wait %(minutes)s minutes, then try again.",
                minutes=error.minutes,
            )
        return _throttled("accounts/sign_in.html", form, message, error)
    except account_service.BadCredentials:
        message = _("That email and password do not match an account. Check them and try again.")
        return _page("accounts/sign_in.html", 422, form=form, general=[message])
    sign_in_browser(user, remember=bool(form.remember.data))
    flash(_("Signed in as %(name)s.", name=user.name), "success")
    return mark_known_device(redirect(_next_url() or url_for("main.index")), user)


@bp.post("/sign-out")
def sign_out() -> ResponseReturnValue:
    """Sign out this browser: its session ends on the server too, so a copy of its cookies
    stops working (the remember-me cookie goes as well)."""
    account_service.end_session(session.get("_user_id"))
    logout_user()
    flash(_("You are signed out."), "success")
    return redirect(url_for("main.index"))


@bp.post("/account/sign-out-everywhere")
@login_required
def sign_out_everywhere() -> ResponseReturnValue:
    """End every session of the account, on every browser and device, this one included."""
    account_service.end_all_sessions(me())
    logout_user()
    flash(_("You are signed out on every device. Sign in again to continue."), "success")
    return redirect(url_for("accounts.sign_in"))


# The account page -------------------------------------------------------------------------------


def _account_page(
    token_form: NewTokenForm, status: int = 200, language_form: LanguageForm | None = None
) -> ResponseReturnValue:
    user = me()
    if language_form is None:
        language_form = LanguageForm(formdata=None, data={"locale": user.locale or ""})
    tokens = account_service.tokens_of(user)
    return render_template(
        "accounts/account.html", tokens=tokens, token_form=token_form, language_form=language_form
    ), status


@bp.get("/account")
@login_required
def account() -> ResponseReturnValue:
    """The account's name and email, its API tokens, and links to change the password."""
    return _account_page(NewTokenForm(formdata=None))


@bp.route("/account/password", methods=["GET", "POST"])
@login_required
def change_password() -> ResponseReturnValue:
    """Change the password; every other browser signed in to the account is signed out."""
    form = ChangePasswordForm()
    if not form.validate_on_submit():
        status = 422 if form.is_submitted() else 200
        return render_template("accounts/change_password.html", form=form), status
    user = me()
    try:
        account_service.change_password(
            user, form.current.data, form.password.data, request.remote_addr
        )
    except (account_service.TooManyAttempts, account_service.WrongPassword) as error:
        return password_refused("accounts/change_password.html", form, error)
    # Every session ended with the old password: sign this browser in again under a new one.
    sign_in_browser(user, remember=remembered())
    flash(_("Password changed. Every other device was signed out."), "success")
    return redirect(url_for("accounts.account"))


@bp.post("/account/language")
@login_required
def set_language() -> ResponseReturnValue:
    """The account's language; this browser switches to it at once (its switcher cookie follows,
    or goes when the account reads as each device is set)."""
    form = LanguageForm()
    if not form.validate_on_submit():
        return _account_page(NewTokenForm(formdata=None), 422, language_form=form)
    account_service.set_locale(me(), form.locale.data)
    flash(_("Language saved."), "success")
    response = redirect(url_for("accounts.account"))
    if form.locale.data:
        return remember_language(response, form.locale.data)
    response.delete_cookie(LANGUAGE_COOKIE)
    return response


# Personal API tokens --------------------------------------------------------------------------


@bp.post("/account/tokens")
@login_required
def create_token() -> ResponseReturnValue:
    """Create a personal API token and show it, this once, in full."""
    form = NewTokenForm()
    if not form.validate_on_submit():
        return _account_page(form, 422)
    new = account_service.create_token(me(), form.name.data or "")
    # Shown in this answer rather than after a redirect: the secret must not go through the
    # session cookie (signed, not encrypted) or any cache.
    response = make_response(
        render_template("accounts/token_created.html", token=new.token, secret=new.secret)
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post(f"/account/tokens/{TOKEN}/revoke")
@login_required
def revoke_token(token_id: int) -> ResponseReturnValue:
    """Revoke one of the account's tokens: it stops working at once."""
    token = account_service.revoke_token(me(), token_id)
    if token is None:
        abort(404)
    flash(_("Token “%(name)s” revoked: it no longer opens anything.", name=token.name), "success")
    return redirect(url_for("accounts.account"))
