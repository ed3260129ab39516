"""Club night tests (a package, so `from .helpers import ...` works beside the other folders)."""
