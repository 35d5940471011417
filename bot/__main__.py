"""``python -m bot``: start the Discord bot.

The bot itself arrives with the Discord issue; until then this says so plainly.
"""

from __future__ import annotations

import sys


def main() -> int:
    print("The Discord bot is not built yet: only the rules engine is (python -m bot.engine).")
    return 1


if __name__ == "__main__":
    sys.exit(main())
