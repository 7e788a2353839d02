"""The package list, by discovery: every package under rules_core/, bot/ and cogs/ (found by setuptools' package
finder, so a new game package needs no edit here or in pyproject.toml), and data/ as the package ``referee_data``
(mapped in pyproject.toml, with its package data). Everything else about the build is in pyproject.toml."""

from setuptools import find_packages, setup

PACKAGES = find_packages(include=["rules_core", "rules_core.*", "bot", "bot.*", "cogs", "cogs.*"])

setup(packages=[*PACKAGES, "referee_data"])
