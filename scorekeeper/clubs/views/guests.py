"""Guests linked to the roster: the owner's preview of a club's guest seats whose names are
roster players' (games made through the API before issue 34), and the one click that links them.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.access import club_for
from scorekeeper.clubs import bp
from scorekeeper.clubs.forms import LinkGuestsForm
from scorekeeper.services import club_games as club_game_service


@bp.get("/clubs/<id:club_id>/guests")
def guests(club_id: int) -> ResponseReturnValue:
    """What "link these guests to the roster" would do: each game, each seat and its player."""
    club, role = club_for(club_id, "owner", next_url=url_for("clubs.guests", club_id=club_id))
    links = club_game_service.guest_links(club)
    form = LinkGuestsForm(seats=",".join(str(link.seat.id) for link in links))
    by_game: dict[int, list[club_game_service.GuestLink]] = {}
    for link in links:
        by_game.setdefault(link.game.id, []).append(link)
    return render_template(
        "clubs/guests.html",
        club=club,
        role=role,
        links=links,
        games=list(by_game.values()),
        form=form,
    )


@bp.post("/clubs/<id:club_id>/guests")
def link_guests(club_id: int) -> ResponseReturnValue:
    """Link the seats the preview showed; each game touched moves to a new version."""
    back = url_for("clubs.guests", club_id=club_id)
    club, _role = club_for(club_id, "owner", next_url=back)
    form = LinkGuestsForm()
    if not form.validate_on_submit():
        flash(_("The form expired: please press the button again."), "error")
        return redirect(back)
    linked = club_game_service.link_guests(club, form.seat_ids())
    if linked:
        message = ngettext(
            "Linked %(num)s guest seat to the roster: its game now counts in the ratings.",
            "Linked %(num)s guest seats to the roster: their games now count in the ratings.",
            len(linked),
        )
        flash(message, "success")
    else:
        flash(_("Nothing to link: no guest seat matches a roster player now."), "info")
    return redirect(url_for("clubs.detail", club_id=club.id))
