"""Building a new revision of the reference profile from specification pages."""
