"""Parlor cogs: one module per game plus the shared commands; helpers start with an underscore."""
