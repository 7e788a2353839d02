"""The engine version written into every report.

Bump it whenever a rule's resolution changes: `verify` compares a stored report
with a fresh run of the same engine version, so a change here marks old records
as made by another engine rather than as tampered with.
"""

ENGINE_VERSION = "0.3.0"
SCHEMA_VERSION = 1
