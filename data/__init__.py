"""The referee's data files (YAML). Installed as the package `referee_data`, so that `importlib.resources`
finds them in editable and plain installs alike; there is no code here."""
