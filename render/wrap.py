"""Breaking a text into lines that fit a width, measured with the font it is drawn in."""

from __future__ import annotations

from functools import lru_cache

from . import sprites

__all__ = ["wrap_text"]


@lru_cache(maxsize=256)
def wrap_text(text: str, width: int, size: int, bold: bool) -> tuple[str, ...]:
    """``text`` in lines no wider than ``width`` at ``size``, broken at spaces.

    A single word wider than ``width`` is cut with an ellipsis (it could not be
    drawn whole at this size anyway). An empty text has no lines.
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and sprites.text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return tuple(sprites.fit_text(one, width, size, bold, size)[0] for one in lines)
