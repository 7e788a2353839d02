"""The example game's files are fixtures of tests/test_adding_a_game.py, copied into a copy of the project: their
tests run there (where the game is registered), never here."""

collect_ignore = ["files"]
