"""Chart test helpers: a game on a known device, with rounds recorded through the services."""

import os

from scorekeeper import core
from scorekeeper.services import games as game_service
from tests.helpers import load_game

DEVICE = "chartdevice-0123456789abcdefghij"  # 32 URL-safe characters, like a real one
PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]


def play(game, extra=0):
    """Record the next round: the first player goes out, the others hold a few pips."""
    names = [player.name for player in game.players]
    hands = {name: core.HandEntry(pips=5 + seat + extra) for seat, name in enumerate(names[1:])}
    outcome = game_service.record_round(game, core.RoundEntry(hands, out=names[0]), confirm=True)
    assert outcome.saved, outcome.check.errors


def make_game(rounds=2, rules=None):
    """A game created on DEVICE with a few rounds; call inside an app context."""
    game = game_service.create_game(PLAYERS, rules or core.GameRules(), device=DEVICE)
    for number in range(rounds):
        play(game, number)
    return load_game(game.id)


def chart_files(app):
    """The chart files in the app's cache folder (no temp files), by name."""
    folder = app.config["CHART_CACHE_DIR"]
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    return [name for name in names if not name.startswith(".")]
