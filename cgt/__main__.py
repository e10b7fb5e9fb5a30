"""``python -m cgt`` runs the command line."""

from cgt.cli import main

main()
