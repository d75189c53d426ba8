"""Summarize: a day of pull-request records becomes one edition (a Digest)."""
