"""Challenges: a combat whose inputs both players agree to before its dice, committed in advance, are rolled
(issue 24). ``commitment`` is the scheme; ``terminal`` the `referee challenge` / `referee accept` flow's logic."""
