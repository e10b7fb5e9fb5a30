"""The claims checker: each claim of docs/rules.md ("Claims") as a small check function in a registry."""
