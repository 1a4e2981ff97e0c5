"""The one error every part of a sweep raises: energy.sweep prints it and exits 1."""


class SweepError(Exception):
    """A problem with the corpus, the plugin or a compile; str() is the message."""
