"""Tests of the Dutch engine, bots and figures."""
