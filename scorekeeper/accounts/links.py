"""Account pages that work through mailed links: a forgotten password, confirming the email
address (at sign-up, after a change, or sent again), and changing the address.

Opening a link (GET) only shows a page; the change is a POST from it, so a mail scanner or a
link preview that opens the link changes nothing.
"""

from __future__ import annotations

from flask import flash, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user, login_required

from scorekeeper.accounts import bp
from scorekeeper.accounts.forms import ChangeEmailForm, ForgotPasswordForm, ResetPasswordForm
from scorekeeper.accounts.mails import send_reset, send_verification
from scorekeeper.accounts.views import me, password_refused, sign_in_browser
from scorekeeper.services import account_links
from scorekeeper.services import accounts as account_service
from scorekeeper.web import limits

# A forgotten password ---------------------------------------------------------------------------


@bp.route("/forgot-password", methods=["GET", "POST"])
@limits.mail_requests
def forgot_password() -> ResponseReturnValue:
    """Ask for a reset link. The answer is the same whether or not an account has the address,
    so this page tells nobody who has an account."""
    form = ForgotPasswordForm()
    if not form.validate_on_submit():
        status = 422 if form.is_submitted() else 200
        return render_template("accounts/forgot_password.html", form=form), status
    user = account_links.user_by_email(form.email.data)
    if user is not None:
        send_reset(user)
    flash(
        _(
            "If an account uses %(email)s, a link to choose a new password is on its way. "
            "It works once, for one hour.",
            email=form.email.data,
        ),
        "success",
    )
    return redirect(url_for("accounts.sign_in"))


def _link_gone(error: Exception, kind: str) -> ResponseReturnValue:
    """410: the link is too old, used or not ours; the page says how to get a new one."""
    expired = isinstance(error, account_links.LinkExpired)
    page = render_template("accounts/link_gone.html", expired=expired, kind=kind)
    return make_response(page, 410)


@bp.route("/reset-password/<token>", methods=["GET", "POST"])
def reset_password(token: str) -> ResponseReturnValue:
    """Choose a new password through a mailed link; every other session is signed out, and
    this browser is signed in."""
    try:
        user = account_links.user_for_reset(token)
    except (account_links.LinkExpired, account_links.LinkInvalid) as error:
        return _link_gone(error, "reset")
    form = ResetPasswordForm()
    if not form.validate_on_submit():
        status = 422 if form.is_submitted() else 200
        page = render_template("accounts/reset_password.html", form=form, token=token, user=user)
        response = make_response(page, status)
        response.headers["Cache-Control"] = "no-store"
        return response
    user = account_links.reset_password(token, form.password.data)
    sign_in_browser(user, remember=False)
    flash(_("Password changed. Every other device was signed out."), "success")
    return redirect(url_for("main.index"))


# Confirming the email address -----------------------------------------------------------------


@bp.get("/verify-email/<token>")
def verify_email(token: str) -> ResponseReturnValue:
    """A confirmation link: a page with one button that confirms (a GET changes nothing)."""
    try:
        user = account_links.verify_email_user(token)
    except (account_links.LinkExpired, account_links.LinkInvalid) as error:
        return _link_gone(error, "verify")
    return render_template("accounts/verify_email.html", token=token, user=user)


@bp.post("/verify-email/<token>")
def confirm_email(token: str) -> ResponseReturnValue:
    """Confirm the address the link was sent to."""
    try:
        user = account_links.verify_email(token)
    except (account_links.LinkExpired, account_links.LinkInvalid) as error:
        return _link_gone(error, "verify")
    flash(_("Thank you: %(email)s is confirmed.", email=user.email), "success")
    signed_in = current_user.is_authenticated
    return redirect(url_for("accounts.account") if signed_in else url_for("accounts.sign_in"))


@bp.post("/account/verify-email")
@login_required
@limits.mail_requests
def resend_verification() -> ResponseReturnValue:
    """Send the confirmation link again (to the account's current address)."""
    user = me()
    if user.email_verified_at is not None:
        flash(_("Your email address is already confirmed."), "success")
    elif send_verification(user):
        flash(_("A new link is on its way to %(email)s.", email=user.email), "success")
    else:
        flash(
            _("The link could not be sent just now. Try again in a while."),
            "error",
        )
    return redirect(url_for("accounts.account"))


@bp.route("/account/email", methods=["GET", "POST"])
@login_required
def change_email() -> ResponseReturnValue:
    """Change the account's address (password needed); it is unconfirmed until the link mailed
    to it is followed."""
    form = ChangeEmailForm()
    if not form.validate_on_submit():
        status = 422 if form.is_submitted() else 200
        return render_template("accounts/change_email.html", form=form), status
    user = me()
    try:
        changed = account_links.change_email(
            user, form.current.data, form.email.data, request.remote_addr
        )
    except (account_service.TooManyAttempts, account_service.WrongPassword) as error:
        return password_refused("accounts/change_email.html", form, error)
    except account_service.EmailTaken:
        form.email.errors = [_("Another account already uses this email address.")]
        return render_template("accounts/change_email.html", form=form), 422
    if not changed:
        flash(_("That is already your email address."), "success")
        return redirect(url_for("accounts.account"))
    send_verification(user)
    flash(
        _(
            "Your email is now %(email)s. Follow the link we sent there to confirm it.",
            email=user.email,
        ),
        "success",
    )
    return redirect(url_for("accounts.account"))
