"""``python -m cgtapp`` runs the command line."""

from cgtapp.cli import main

main()
