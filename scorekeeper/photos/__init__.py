"""Reading a hand of dominoes from a photo: tiles, their values and advice."""
