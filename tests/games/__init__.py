"""Tests of the game engines, one package per game."""
