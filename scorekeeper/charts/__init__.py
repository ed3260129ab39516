"""Charts: drawing (draw), the one SVG cache (cache), the words on them (text), and the data of a
game's, a season's and a player's chart (game, season, player)."""
