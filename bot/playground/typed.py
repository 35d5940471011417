"""Slash commands typed whole in the playground's message box.

SimCord's page runs a command only when it is picked from the popup; a line typed in
full (``/domino play tile:6-4 end:west``) would be posted as plain text, which the bot
never reads. Here such a line is read as the command it names, with its options as
``name:value`` (quoted when the value has spaces: ``tile:"3-3 5-5"``), and run exactly
as if picked from the popup: SimCord's page action for a command, with its checks of
the options (their types, ranges, choices and required ones), and then the bot's own.
A choice may be typed by its value (``game:block``) or its name (``game:"Block game"``),
a true/false option as ``true``/``false`` (or yes/no, on/off).

A line that names no command, or whose options do not fit it, gets an answer on the
page, visible only to the one who typed it (as the bot's private replies are) and in
the language the page's interactions carry; nothing is run.

The hook is the preview's one place that prepares a page action
(``Preview._prepare_action``, SimCord 3.2), wrapped by :func:`accept_typed_commands`;
``tests/playground`` checks that this still holds.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simcord.backend import serializers
from simcord.backend.errors import OptionError
from simcord.enums import AppCommandType, InteractionType, OptionType
from simcord.interactions import command_leaves
from simcord.preview._commands import entry_for_leaf

from bot.games.errors import GameError
from bot.i18n import N_, Translator

if TYPE_CHECKING:
    from simcord.preview import Preview

PAGE_LOCALE = "en-US"
"""The Discord locale of every interaction the page sends (SimCord's)."""
EPHEMERAL = 1 << 6
TRUE_WORDS = frozenset({"true", "yes", "on"})
FALSE_WORDS = frozenset({"false", "no", "off"})
EXCERPT = 60
"""Characters of a typed word echoed back in an answer."""

UNKNOWN = N_(
    "There is no command `/{name}`. Type / to see the commands, or use `/domino help` "
    "to learn how to play."
)
INCOMPLETE = N_("`/{name}` is not a whole command. The commands: {commands}.")
UNCLOSED = N_("A quote in your command is not closed, so it was not run.")
NOT_AN_OPTION = N_(
    "Write each option as name:value, e.g. `tile:6-4`; `{word}` has no name, so the "
    "command was not run."
)
TWICE = N_("The option `{option}` is given twice, so the command was not run.")
NO_SUCH_OPTION = N_("`/{name}` has no option `{option}`. Its options: {options}.")
NO_OPTIONS = N_("`/{name}` has no option `{option}`: it takes none.")
REQUIRED = N_("`/{name}` needs the option `{option}`, e.g. `{option}:…`.")
CHOICES = N_("The option `{option}` is one of: {choices}.")
BETWEEN = N_("The option `{option}` is a whole number from {low} to {high}.")
TRUE_OR_FALSE = N_("The option `{option}` is true or false.")
INVALID = N_("`{value}` does not fit the option `{option}` of `/{name}`.")


class LineError(GameError):
    """A typed line that is no command: ``message`` (a msgid) with its fields."""


@dataclass(frozen=True, slots=True)
class TypedLine:
    """A typed command: its words (``domino play``) and its options as typed."""

    words: tuple[str, ...]
    options: dict[str, str]

    @property
    def name(self) -> str:
        return " ".join(self.words)


def is_command_line(content: str) -> bool:
    """Whether the message box's ``content`` is a command to run (one line, after ``/``)."""
    text = content.strip()
    return text.startswith("/") and "\n" not in text


def parse_line(content: str) -> TypedLine:
    """``/domino play tile:6-4 end:west`` as its words and its options."""
    try:
        tokens = shlex.split(content.strip().removeprefix("/"))
    except ValueError:
        raise LineError(UNCLOSED) from None
    words: list[str] = []
    options: dict[str, str] = {}
    for token in tokens:
        name, colon, value = token.partition(":")
        if not colon or not name:
            if options or not token:
                raise LineError(NOT_AN_OPTION, word=_excerpt(token))
            words.append(token.lower())
            continue
        name = name.lower()
        if name in options:
            raise LineError(TWICE, option=_excerpt(name))
        options[name] = value
    return TypedLine(tuple(words), options)


def find_command(
    commands: Iterable[Mapping[str, Any]], line: TypedLine
) -> tuple[Mapping[str, Any], list[str], dict[str, Any]]:
    """The command ``line`` names among ``commands`` (the viewer's): (root, path, leaf)."""
    leaves = [
        (command, path, leaf)
        for command in commands
        for path, leaf in command_leaves(dict(command))
    ]
    for command, path, leaf in leaves:
        if tuple(path) == line.words:
            return command, path, leaf
    for _, path, _ in leaves:  # a command, then a word that is no option
        if tuple(path) == line.words[: len(path)]:
            raise LineError(NOT_AN_OPTION, word=_excerpt(line.words[len(path)]))
    below = sorted(
        f"`/{' '.join(path)}`"
        for _, path, _ in leaves
        if tuple(path[: len(line.words)]) == line.words
    )
    if below:
        raise LineError(INCOMPLETE, name=_excerpt(line.name), commands=", ".join(below))
    raise LineError(UNKNOWN, name=_excerpt(line.name))


def wire_options(line: TypedLine, leaf: Mapping[str, Any]) -> dict[str, Any]:
    """The typed options as the page sends them: strings, but JSON booleans for a
    true/false option and a choice's value for a choice typed by its name. What fits
    no option is passed on as typed, for SimCord's checks to refuse."""
    declared = {option["name"]: option for option in leaf.get("options") or []}
    wire: dict[str, Any] = {}
    for name, value in line.options.items():
        option = declared.get(name)
        wire[name] = value if option is None else _wire_value(option, value)
    return wire


def _wire_value(option: Mapping[str, Any], value: str) -> Any:
    if option.get("type") == OptionType.BOOLEAN:
        lowered = value.lower()
        if lowered in TRUE_WORDS:
            return True
        if lowered in FALSE_WORDS:
            return False
        return value
    for choice in option.get("choices") or []:
        if value == str(choice["value"]) or value.casefold() == str(choice["name"]).casefold():
            return str(choice["value"])
    return value


def option_problem(
    error: OptionError, line: TypedLine, leaf: Mapping[str, Any], tr: Translator
) -> str:
    """What is wrong with ``line``'s options, as SimCord's check ``error`` found it."""
    declared = {option["name"]: option for option in leaf.get("options") or []}
    name = _excerpt(line.name)
    option = declared.get(error.option or "")
    if option is None:
        if not declared:
            return tr(NO_OPTIONS, name=name, option=_excerpt(error.option or ""))
        listed = ", ".join(f"`{o}`" for o in declared)
        return tr(NO_SUCH_OPTION, name=name, option=_excerpt(error.option or ""), options=listed)
    if error.code == "option-required":
        return tr(REQUIRED, name=name, option=option["name"])
    value = _excerpt(line.options.get(option["name"], ""))
    text = tr(INVALID, value=value, option=option["name"], name=name)
    hint = _hint(option, tr)
    return f"{text} {hint}" if hint else text


def _hint(option: Mapping[str, Any], tr: Translator) -> str:
    choices = option.get("choices") or []
    if choices:
        listed = ", ".join(f"`{c['value']}`" for c in choices)
        return tr(CHOICES, option=option["name"], choices=listed)
    if option.get("type") == OptionType.BOOLEAN:
        return tr(TRUE_OR_FALSE, option=option["name"])
    if option.get("type") == OptionType.INTEGER and "min_value" in option:
        low, high = option["min_value"], option.get("max_value", "…")
        return tr(BETWEEN, option=option["name"], low=low, high=high)
    return ""


def _excerpt(text: str) -> str:
    """What the user typed, shortened and without backticks (it is shown in code ticks)."""
    text = text.replace("`", "'")
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


Prepare = Callable[[Any, str, Mapping[str, Any]], Any]


def accept_typed_commands(preview: Preview) -> None:
    """Run the commands typed whole in ``preview``'s message box (see the module)."""
    prepare: Prepare = preview._prepare_action
    tr = Translator.for_locale(PAGE_LOCALE)

    def prepare_typed(page: Any, kind: str, body: Mapping[str, Any]) -> Any:
        content = body.get("content")
        if kind != "send_message" or not isinstance(content, str) or not is_command_line(content):
            return prepare(page, kind, body)
        try:
            line = parse_line(content)
        except LineError as problem:
            return _answer(preview, page, None, problem.text(tr))
        try:
            commands = preview.env.backend.visible_commands(
                user_id=page.viewer.id, channel_id=page.channel_id
            )
            root, path, leaf = find_command(commands, line)
        except LineError as problem:
            return _answer(preview, page, line, problem.text(tr))
        command = {
            "command_id": str(root["id"]),
            "path": path,
            "schema_fingerprint": entry_for_leaf(root, path, leaf)["schemaFingerprint"],
            "options": wire_options(line, leaf),
        }
        try:
            return prepare(page, "run_command", command)
        except OptionError as error:
            return _answer(preview, page, line, option_problem(error, line, leaf, tr))

    preview._prepare_action = prepare_typed  # type: ignore[method-assign]


def _answer(preview: Preview, page: Any, line: TypedLine | None, text: str) -> Any:
    """A page action that answers the viewer alone with ``text``, as the bot's private
    replies come (under "<viewer> used /<the typed command>"), and runs nothing."""

    async def run(action: Any, cursor: int) -> dict[str, Any]:
        backend = preview.env.backend
        used: dict[str, Any] = {
            "id": str(backend.snowflake()),
            "type": int(InteractionType.APPLICATION_COMMAND),
            "command_type": int(AppCommandType.CHAT_INPUT),
            "user": serializers.user_payload(backend.users[page.viewer.id]),
            "authorizing_integration_owners": {},
        }
        if line is not None and line.words:
            used["name"] = _excerpt(line.name)
        message = backend.create_message(
            page.channel_id, backend.bot_user.id, text, flags=EPHEMERAL, interaction_metadata=used
        )
        action.outcomes = [{"kind": "message", "messageId": str(message.id)}]
        result: dict[str, Any] = preview._finish_action(page, action, "settled", cursor)
        preview._publish_message_pages()
        return result

    return run
