"""Errors raised when an offline resource cannot be found."""


class MissingResourceError(FileNotFoundError):
    """A knowledge source or pretrained asset is missing.

    The message says what is missing, where it was looked for, and the command that installs it.
    """

    def __init__(self, what: str, looked_in, install: str):
        self.what = what
        self.looked_in = list(looked_in)
        self.install = install
        where = "; ".join(str(p) for p in self.looked_in) or "(nowhere)"
        super().__init__(f"{what} not found (looked in: {where}). Install it with: {install}")


class ModelNotFoundError(FileNotFoundError):
    """A model name or directory that cannot be loaded: the message names it and says what was
    expected (a model directory, a known offline name, a cached or a hub model), on one line."""
