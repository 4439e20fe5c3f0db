"""Tests of the loopback Discord (bot.sandbox) driven by the real discord.py client."""
