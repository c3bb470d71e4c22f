"""Watching a solve: the engine's search replayed as steps, explained, printed and animated.

``trace`` turns the compiled search's events into ``Step``s; ``explain`` says why each
deduction holds; ``steps`` prints them as text (``--steps``), ``account`` prints an
explanation, ``frames`` turns steps into pictures, ``animate`` writes GIF/HTML animations and
``player`` the self-contained HTML player. Sits above ``render/`` (pictures of one grid) and
the engine; nothing below imports it.
"""
