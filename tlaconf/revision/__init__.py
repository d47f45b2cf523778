"""Revise the reference profile: build revision R2 from revision R and the definitions new
specification pages publish (``tlaconf revise``)."""
