"""The Wire: a daily news page, index and RSS feed of what busy repositories merged."""

__version__ = "0.1.0"
