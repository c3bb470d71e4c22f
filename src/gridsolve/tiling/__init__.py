"""Polyomino tiling: boards, pieces, exact cover, and calendar puzzles."""
