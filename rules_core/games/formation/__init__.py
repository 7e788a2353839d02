"""The formation-assault engine shared by Epic: Armageddon and Reikhammer.

``rules`` holds the per-game table, ``spec`` the parser, ``engine`` the
procedure, ``game`` the registry class the two thin game modules subclass, and
``odds`` the exact solver both share.
"""
