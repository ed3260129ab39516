"""Game night pages: setup, the game page, rounds, share link, print view."""

from scorekeeper.games import bp  # noqa: F401
