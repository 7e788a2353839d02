"""Army list files: BattleScribe and New Recruit lists read into a neutral, game-agnostic tree.

What it reads (``read_list_file(data)``, the format found from the content, not the name):
- BattleScribe ``.ros``: XML, in the old layout (BattleScribe 1.15: units under ``force/categories/category``,
  profiles with ``type=``, values in ``value=`` attributes, ``points=`` on selections) and the new one (2.x and New
  Recruit's XML export: ``force/selections``, ``typeName=``, values as element text);
- ``.rosz``: a zip of exactly one ``.ros``, whose member is read into memory, never extracted to disk;
- New Recruit ``.json``: ``{"roster": ...}``, the same tree with values under ``"$text"`` and JSON numbers.

Every file becomes a ListFile: forces, nested selections (name, type and number as written), their profiles
(type names stripped of leading spaces, characteristics as ordered (name, value) pairs, empty ones kept as ""),
rules, categories and costs. Nothing here knows a game: the game layer maps the tree to units.

A list is an upload from anyone, so it is read under bounds (errors.py, each with its reason): the file and a
.rosz's unpacked member at most 2 MB (the member read with a cap as it inflates, and checked against its CRC,
since a zip's header can lie), 64 levels of XML elements and 32 of selections (Python's own limit bounds JSON's
nesting), 10,000 selections, 1,000 units, 10,000 models, and a number of at most 1,000 per selection. XML goes
through defusedxml with DTDs refused, so no entity is expanded and no external reference fetched. Anything
malformed or past a bound raises ListFileError (a ValueError) whose message is one line naming the problem.
"""

from bot.list_files.errors import ListFileError
from bot.list_files.read import read_list_file
from bot.list_files.tree import (
    BATTLESCRIBE_ROS,
    BATTLESCRIBE_ROSZ,
    NEW_RECRUIT_JSON,
    Cost,
    Force,
    ListFile,
    Profile,
    Selection,
)

__all__ = [
    "BATTLESCRIBE_ROS",
    "BATTLESCRIBE_ROSZ",
    "NEW_RECRUIT_JSON",
    "Cost",
    "Force",
    "ListFile",
    "ListFileError",
    "Profile",
    "Selection",
    "read_list_file",
]
