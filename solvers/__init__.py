"""Exact solvers over the game protocol: retrograde analysis and alpha-beta search."""
