"""Dominobot: dominoes for Discord servers."""
