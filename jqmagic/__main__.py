"""``python -m jqmagic`` runs the command line."""

from jqmagic.cli import command

command()
