"""Use cases: the only code that joins the database and the rules core, and that commits."""
