"""No user-facing words in the code outside the catalogs.

The source is read with ``ast``: a string literal with letters that reaches a
Discord-facing call (a message, an embed, a button, a select option, a command
description or choice, a refusal) or an image (``draw_text``, the words of a
render dataclass) must be wrapped in ``tr``/``tr.plural``/``N_``/``locale_str``, so
that extraction finds it and every language gets it. A marker given something
extraction can't read (an f-string, a concatenation, a variable ``N_``) is an
error too. Only :data:`ALLOWED` may break the rule.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("cogs", "bot/games", "bot/stats", "render", "bot/client.py", "bot/discord_i18n.py")

ALL = -1
"""Every keyword argument of the call."""
# call name -> (positional argument indexes, keyword names) that users read
SINKS: dict[str, tuple[tuple[int, ...], frozenset[str] | int]] = {
    "send": ((0,), frozenset({"content"})),
    "send_message": ((0,), frozenset({"content"})),
    "reply": ((0,), frozenset({"content"})),
    "edit": ((), frozenset({"content"})),
    "edit_message": ((), frozenset({"content"})),
    "edit_original_response": ((), frozenset({"content"})),
    "Embed": ((), frozenset({"title", "description"})),
    "add_field": ((), frozenset({"name", "value"})),
    "insert_field_at": ((), frozenset({"name", "value"})),
    "set_field_at": ((), frozenset({"name", "value"})),
    "set_footer": ((), frozenset({"text"})),
    "set_author": ((), frozenset({"name"})),
    "Button": ((), frozenset({"label"})),
    "Select": ((), frozenset({"placeholder"})),
    "SelectOption": ((), frozenset({"label", "description"})),
    "TextInput": ((), frozenset({"label", "placeholder", "default"})),
    "Modal": ((), frozenset({"title"})),
    "TableButton": ((2,), frozenset({"label"})),
    "MoveButton": ((3,), frozenset({"label"})),
    "MoveSelect": ((), frozenset({"placeholder"})),
    "GameError": ((0,), frozenset()),
    "StaleError": ((0,), frozenset()),
    "Choice": ((), frozenset({"name"})),
    "command": ((), frozenset({"description"})),
    "Group": ((), frozenset({"description"})),
    "describe": ((), ALL),
    "draw_text": ((1,), frozenset({"text"})),
    "fit_text": ((0,), frozenset({"text"})),
}
MARKERS = frozenset({"tr", "N_", "locale_str", "plural"})
"""Calls whose first argument(s) extraction reads: they must be plain literals."""
ALWAYS_LITERAL = frozenset({"N_", "locale_str"})
"""Markers that are never given a variable (``tr`` may translate a marked constant)."""

ALLOWED: set[tuple[str, str]] = set()
"""(file, literal) pairs that may reach users untranslated. Keep it small."""

LETTER = re.compile(r"[^\W\d_]")
FIELD = re.compile(r"\{[^{}]*\}")


def has_words(text: str) -> bool:
    return bool(LETTER.search(FIELD.sub("", text)))


def call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def loose_literals(node: ast.AST) -> Iterator[str]:
    """String literals with words in ``node`` that no call has a hand in.

    Calls are not entered (``tr(...)``, ``game_name(...)``, ``" · ".join(...)`` made
    the text), nor are subscripts (``RULES_TEXT["block"]`` is a lookup).
    """
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str) and has_words(node.value):
            yield node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        if has_words(str(text)):
            yield ast.unparse(node)
    elif not isinstance(node, ast.Call | ast.Subscript | ast.Lambda):
        for child in ast.iter_child_nodes(node):
            yield from loose_literals(child)


def marker_misuse(call: ast.Call) -> str | None:
    """Why extraction can't read this ``tr``/``N_``/``locale_str`` call, if it can't."""
    name = call_name(call)
    if name not in MARKERS or not call.args:
        return None
    if name == "plural" and not (isinstance(call.func, ast.Attribute) and len(call.args) >= 3):
        return None
    if name == "tr" and isinstance(call.func, ast.Attribute):
        return None  # something else's method called tr
    for arg in call.args[: 2 if name == "plural" else 1]:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            continue
        if isinstance(arg, ast.JoinedStr | ast.BinOp):
            return f"{name}() is given {ast.unparse(arg)}, which extraction can't read"
        if name in ALWAYS_LITERAL or name == "plural":
            return f"{name}() is given {ast.unparse(arg)}: it takes a string literal"
    return None


def sink_arguments(call: ast.Call) -> Iterator[ast.AST]:
    sink = SINKS.get(call_name(call))
    if sink is None:
        return
    positions, keywords = sink
    for i in positions:
        if i < len(call.args):
            yield call.args[i]
    for kw in call.keywords:
        if kw.arg is not None and (isinstance(keywords, int) or kw.arg in keywords):
            yield kw.value


def dataclass_words(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Literal words given as defaults of a render dataclass (they must be ``N_``-marked)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        decorated = any("dataclass" in ast.unparse(d) for d in node.decorator_list)
        if not decorated:
            continue
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and item.value is not None:
                for text in loose_literals(item.value):
                    yield item.lineno, text


def problems(source: str, filename: str = "<test>") -> list[str]:
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            misuse = marker_misuse(node)
            if misuse:
                found.append(f"{filename}:{node.lineno}: {misuse}")
            for arg in sink_arguments(node):
                for text in loose_literals(arg):
                    if (filename, text) not in ALLOWED:
                        found.append(f"{filename}:{node.lineno}: untranslated {text!r}")
        elif isinstance(node, ast.ClassDef):
            for kw in node.keywords:
                if kw.arg and kw.arg.endswith("description"):
                    found += [
                        f"{filename}:{node.lineno}: untranslated {text!r}"
                        for text in loose_literals(kw.value)
                    ]
    if filename.startswith("render/"):
        found += [
            f"{filename}:{line}: untranslated {text!r}"
            for line, text in dataclass_words(tree)
            if (filename, text) not in ALLOWED
        ]
    return found


def sources() -> list[Path]:
    paths: list[Path] = []
    for entry in SCANNED:
        path = ROOT / entry
        paths += sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []
    return paths


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_untranslated_user_facing_text(path: Path):
    name = str(path.relative_to(ROOT))
    assert problems(path.read_text(encoding="utf-8"), name) == []


def test_the_scan_covers_the_bot():
    names = {str(p.relative_to(ROOT)) for p in sources()}
    assert {"cogs/domino/cog.py", "cogs/domino/table.py", "render/labels.py"} <= names
    assert "bot/games/service.py" in names
    inspected = sum(
        1
        for path in sources()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        for _ in sink_arguments(node)
    )
    assert inspected > 100  # the sinks are the calls the bot really makes


BAD = """
async def f(interaction, tr, session, n):
    await interaction.response.send_message("Your turn!", ephemeral=True)
    await interaction.followup.send(content=f"Game #{session.id} is over")
    embed = discord.Embed(title="Leaderboard", description=tr("fine"))
    embed.add_field(name=tr("Seats"), value="nobody " + str(n))
    embed.set_footer(text=tr("ok") if n else "Game over")
    Button(label="Join", custom_id="domino:join:1")
    raise GameError("You can't do that.")
    tr(f"{n} tiles")
    tr.plural("one", f"{n} many", n)
    locale_str(name)
    Choice(name="Block", value="block")
    draw_text(im, "Boneyard", 1, 2, 20)

@dataclass
class Words:
    title: str = "Winner"
    fine: str = N_("Loser")

class Cog(commands.GroupCog, group_description="Play dominoes"):
    pass
"""

GOOD = """
async def f(interaction, tr, session, names, message):
    await interaction.response.send_message(tr("Your turn!"), ephemeral=True)
    await interaction.followup.send(content=tr("Game #{id} is over", id=session.id))
    embed = discord.Embed(title=game_name("block", tr), description=" · ".join(names))
    embed.add_field(name=tr("Seats"), value="\\n".join(f"{i}. —" for i in range(3)))
    embed.set_footer(text=tr(message))
    Button(label=tr("Join"), custom_id=f"domino:join:{session.id}")
    SelectOption(label="…", value="0")
    raise GameError(N_("You can't do that."))
    tr.plural("{n} tile", "{n} tiles", 3)
    Choice(name=locale_str("Block game"), value="block")
    Choice(name=LANGUAGE_NAMES["fi"], value="fi")
    draw_text(im, labels.boneyard, 1, 2, 20)
    log.info("a log line is for developers")
    raise ValueError(f"not for users: {message}")
"""


def test_the_scan_catches_real_mistakes():
    found = problems(BAD, "render/bad.py")
    texts = "\n".join(found)
    for phrase in (
        "'Your turn!'",
        "Game #",
        "'Leaderboard'",
        "'nobody '",
        "'Game over'",
        "'Join'",
        '"You can\'t do that."',
        "tr() is given f'{n} tiles'",
        "plural() is given f'{n} many'",
        "locale_str() is given name",
        "'Block'",
        "'Boneyard'",
        "'Winner'",
        "'Play dominoes'",
    ):
        assert phrase in texts, phrase
    assert "Loser" not in texts
    assert len(found) == 14, texts


def test_the_scan_lets_translated_text_through():
    assert problems(GOOD, "cogs/good.py") == []
