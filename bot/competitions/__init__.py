"""Club competitions: several tables, rounds, place points, standings (issue 41).

The rules of a competition are pure and live here: how players are seated
(:mod:`.seating`) and how the standings are counted (:mod:`.standings`).
"""
