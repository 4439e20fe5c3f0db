"""Parlor: a Discord bot that hosts card games."""

__version__ = "0.1.0"
