"""The referee's documentation, shipped inside the install so that ``referee docs [TOPIC]`` shows a page offline
and every pointer the terminal gives (``referee docs 40k``) works after a plain ``pip install .``: ``docs`` is a
symbolic link to the repository's docs/ folder, ``README.md`` to its README and ``env.example`` to .env.example
(the same way bot/shipped_data is data/). There is no code here; bot/cli/docs.py reads the pages."""
