"""The game engines, one package each; every package exporting ``ENGINE`` joins ``bot.engine.REGISTRY``."""
