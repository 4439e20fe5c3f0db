"""Tests of the loopback Discord (sandbox) driven by the real discord.py client."""
