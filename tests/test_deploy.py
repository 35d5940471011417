"""The Docker image holds what the bot runs from, and no secret (issue 37, row 1).

Docker may not run here, so the build context is computed as Docker computes it: every
file below the context's root that the root's ``.dockerignore`` does not exclude
(Docker's rules: patterns are Go ``filepath.Match`` patterns plus ``**``; a pattern
that matches a folder matches everything in it; ``!`` re-includes; the last pattern
that matches a path decides). What the image gets is what the Dockerfile's ``COPY``
lines take from that context.

Two trees: one planted with every kind of secret a checkout of the bot may hold (a
root ``.env``, ``deploy/.env``, SQLite files with live games and their WAL, ``.git``,
a virtual environment), and the repository itself.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
PACKAGES = ("bot", "cogs", "render")
PACKAGE_FILES = ("pyproject.toml", "README.md")  # the build's metadata and long description


# -- Docker's .dockerignore rules (moby/patternmatcher) -------------------------------------


class Pattern:
    def __init__(self, line: str) -> None:
        self.exclusion = line.startswith("!")
        text = os.path.normpath(line[1:].strip() if self.exclusion else line)
        if len(text) > 1 and text.startswith("/"):
            text = text[1:]
        self.text = text
        self.regex = re.compile(_regex(text))

    def matches(self, path: str) -> bool:
        """The pattern matches ``path`` or one of its parent folders."""
        parts = path.split("/")
        return any(self.regex.match("/".join(parts[:i])) for i in range(len(parts), 0, -1))


def _regex(pattern: str) -> str:
    out = "^"
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):
                i += 1
            out += ".*" if i >= len(pattern) else "(.*/)?"
            continue
        if c == "*":
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out += re.escape(pattern[i])
        elif c == "[":
            end = pattern.index("]", i)
            out += pattern[i : end + 1].replace("[!", "[^")
            i = end
        else:
            out += re.escape(c)
        i += 1
    return out + "$"


def dockerignore(root: Path) -> list[Pattern]:
    path = root / ".dockerignore"
    if not path.exists():
        return []
    lines = (line.strip() for line in path.read_text().splitlines())
    return [Pattern(line) for line in lines if line and not line.startswith("#")]


def excluded(path: str, patterns: list[Pattern]) -> bool:
    out = False
    for p in patterns:
        if p.matches(path):
            out = not p.exclusion
    return out


def build_context(root: Path) -> set[str]:
    """Every file Docker sends as the build context of ``root`` (relative, with ``/``)."""
    patterns = dockerignore(root)
    reinclude = [p.text for p in patterns if p.exclusion]
    files: set[str] = set()
    for folder, dirs, names in os.walk(root):
        rel = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        # an excluded folder is skipped unless a "!" pattern may reach inside it
        dirs[:] = [
            d
            for d in dirs
            if not excluded(prefix + d, patterns)
            or any(r.startswith(prefix + d) or "*" in r for r in reinclude)
        ]
        files.update(prefix + n for n in names if not excluded(prefix + n, patterns))
    return files


# -- the Dockerfile's COPY lines ------------------------------------------------------------


def copy_sources(dockerfile: Path) -> list[str]:
    """The context paths (or globs) of every COPY and ADD that reads the context."""
    text = re.sub(r"\\\n", " ", dockerfile.read_text())
    sources: list[str] = []
    for line in text.splitlines():
        words = line.strip().split(None, 1)
        if len(words) < 2 or words[0].upper() not in ("COPY", "ADD"):
            continue
        args = words[1]
        flags = re.findall(r"--(\w+)(?:=\S*)?", args)
        if "from" in flags:
            continue  # from another stage or image, not from the context
        args = re.sub(r"--\w+(=\S*)?\s*", "", args).strip()
        parts = json.loads(args) if args.startswith("[") else args.split()
        sources += parts[:-1]
    return sources


def image_files(root: Path) -> set[str]:
    """The context's files that the Dockerfile copies into the image."""
    context = build_context(root)
    taken: set[str] = set()
    for source in copy_sources(root / "deploy" / "Dockerfile"):
        source = os.path.normpath(source).lstrip("/")
        if source == ".":
            return context
        for path in context:
            parts = path.split("/")
            heads = ("/".join(parts[:i]) for i in range(1, 1 + len(parts)))
            if any(fnmatch.fnmatchcase(head, source) for head in heads):
                taken.add(path)
    return taken


# -- the tests ------------------------------------------------------------------------------

SECRETS = (
    ".env",  # DISCORD_TOKEN, a DATABASE_URL with its password
    "deploy/.env",  # compose's env_file: the token and POSTGRES_PASSWORD
    "deploy/prod.env",
    ".env.production",
    "dominobot.sqlite3",  # every game in play, with every hand
    "dominobot.sqlite3-wal",
    "dominobot.sqlite3-shm",
    "dominobot.sqlite3-lock",
    "playground.sqlite3",
    "data/games.sqlite3",
    "bot/stray.sqlite3",
    "backup.db",
    ".git/config",
    ".git/HEAD",
    ".venv/lib/python3.11/site-packages/x.py",
    "tests/e2e/test_about.py",
    "bot/__pycache__/client.cpython-311.pyc",
)
NEEDED = (
    "pyproject.toml",
    "README.md",
    "bot/__init__.py",
    "bot/__main__.py",
    "bot/locales/fi/LC_MESSAGES/dominobot.po",
    "cogs/domino/cog.py",
    "render/__init__.py",
)


def planted(tmp_path: Path) -> Path:
    """A checkout with the real .dockerignore and Dockerfile, and a secret of every kind."""
    root = tmp_path / "checkout"
    for name in (*SECRETS, *NEEDED):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{name}\n")
    if (ROOT / ".dockerignore").exists():
        shutil.copy(ROOT / ".dockerignore", root / ".dockerignore")
    shutil.copy(DOCKERFILE, root / "deploy" / "Dockerfile")
    return root


def test_the_build_context_and_the_image_hold_no_secret(tmp_path):
    root = planted(tmp_path)
    context = build_context(root)
    assert sorted(set(SECRETS) & context) == []
    image = image_files(root)
    assert image <= context
    assert sorted(set(NEEDED) - image) == []  # and the build still has what it runs from


def test_the_rules_are_dockers():
    """The matcher above on Docker's documented examples."""
    rules = [Pattern(p) for p in ("*/temp*", "*/*/temp*", "temp?", "**/*.go", "!keep.go")]
    assert excluded("a/temporary.txt", rules)
    assert excluded("a/b/temp", rules)
    assert excluded("temp1", rules)
    assert excluded("x/y/z.go", rules)
    assert not excluded("keep.go", rules)
    assert not excluded("temp/x", [Pattern("temp?")])
    assert excluded("deep/in/.env", [Pattern("*"), Pattern("!deep"), Pattern("**/.env")])
    assert not excluded("deep/in/x.py", [Pattern("*"), Pattern("!deep/"), Pattern("**/.env")])


def tracked(*paths: str) -> set[str]:
    done = subprocess.run(
        ["git", "ls-files", "--", *paths], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"not a git checkout: {done.stderr.strip()}")
    return set(done.stdout.splitlines())


def test_the_image_gets_the_packages_and_nothing_else():
    image = image_files(ROOT)
    assert sorted(tracked(*PACKAGES, *PACKAGE_FILES) - image) == []
    others = sorted(p for p in image if p.split("/")[0] not in (*PACKAGES, *PACKAGE_FILES))
    assert others == []
    assert not [p for p in image if re.search(r"(^|/)\.env|\.sqlite3?($|-)|\.db$", p)]
