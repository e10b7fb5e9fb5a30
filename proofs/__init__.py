"""The claims checker: each claim of GAMES.md as a small check function in a registry."""
