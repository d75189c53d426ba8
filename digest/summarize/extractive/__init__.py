"""The default writer: the edition built from the records alone, offline and deterministic.

``writer.py`` tells the stories and writes the FAQ; ``actions.py`` drafts the action items
from the day's facts. Both build on what :mod:`digest.summarize` shares with every writer.
"""

from digest.summarize.extractive.writer import ExtractiveWriter

__all__ = ["ExtractiveWriter"]
