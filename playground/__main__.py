"""``python -m playground``: the command line (``playground.cli``)."""

from playground.cli import app

app(prog_name="python -m playground")
