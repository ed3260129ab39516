"""Landing page and health check."""
