"""The server's machinery below the web: SQLite, logs, mail, the small LRU."""
