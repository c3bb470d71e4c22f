"""Nonograms: model, formats, the compiled engine and its alternatives."""
