"""Use cases: the only code that joins the database and the rules core, and the only code that commits."""
