"""The league domain, pure (no SQL, nothing of bot.storage): its values and errors, input rules, permissions,
match transitions, standings and ratings, and their chart and CSV export. bot.storage (leagues, matches) stores it."""
