"""Error pages (HTML) and error bodies (JSON) for the whole app."""
