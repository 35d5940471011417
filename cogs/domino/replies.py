"""Every refusal and failure becomes a polite ephemeral reply; nothing is lost.

One path for all of them, :func:`reply_error`: a refusal (a :class:`GameError`) is
said politely; a database that cannot be reached just now (a PostgreSQL server gone:
:func:`bot.games.errors.unavailable`) is said as such, with nothing done and
a moment to wait; anything else is logged and answered with a polite "something went
wrong" that shows nothing of the game. Commands mark their refusals with
:func:`refusing` (a refusal is an answer, not a bot failure: it never reaches
discord.py's error handlers); their failures reach the cog's one error handler
(``Domino.cog_app_command_error``). Buttons and selects answer both in
:class:`~cogs.domino.items.DominoItem`.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import replace
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord
from discord.ext import commands

from bot.games.errors import GameError, TrainWord, unavailable
from bot.i18n import Translator

from .carriers import answered, carrying
from .markup import plain

log = logging.getLogger(__name__)

P = ParamSpec("P")
CogT = TypeVar("CogT", bound=commands.Cog)
Handler = Callable[Concatenate[CogT, discord.Interaction, P], Coroutine[Any, Any, None]]

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's text."""


PUBLIC_DEFER = "dominobot.public_defer"


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge a command whose answer is public ("thinking…" for everyone).

    A refusal must still be private: :func:`reply_error` then removes the public
    "thinking…" message and answers the user alone.
    """
    interaction.extras[PUBLIC_DEFER] = True
    await interaction.response.defer(thinking=True)


PLACEHOLDER = "dominobot.placeholder"


async def placeholder(interaction: discord.Interaction, text: str) -> None:
    """Answer a deferred command with ``text`` for now ("Opening your table…"), so that
    its interaction may carry public messages (:mod:`.carriers`); its final answer, or a
    refusal (:func:`reply_error`), replaces that text."""
    await interaction.edit_original_response(content=text)
    interaction.extras[PLACEHOLDER] = True
    answered(interaction)


async def final_answer(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Replace a :func:`placeholder` (or the clicked question) with the answer that a saved
    change is done (Discord refusing it is :func:`only_logged`)."""
    interaction.extras.pop(PLACEHOLDER, None)
    with only_logged("could not confirm a saved change to the user"):
        await interaction.edit_original_response(content=text, **kwargs)


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    original = getattr(error, "original", error)
    tr = Translator.for_locale(interaction.locale)
    database_gone = unavailable(original)
    if isinstance(original, GameError):
        # fields may hold what users typed or named themselves: shown as typed
        fields = {k: _escaped(v) for k, v in original.fields.items()}
        text = GameError(original.message, **fields).text(tr)
    elif database_gone is not None:
        # the server went away: the call failed and nothing was announced (the storage
        # layer connects anew on the next call), so the user may simply try again
        log.warning("an interaction was refused: %s", original)
        text = database_gone.text(tr)
    else:
        log.error("an interaction failed", exc_info=original)
        text = tr("Something went wrong on our side. The game is safe; please try again.")
    text = text[:MESSAGE_LIMIT]
    try:
        if interaction.extras.pop(PLACEHOLDER, False):
            await interaction.edit_original_response(content=text)  # in the placeholder's place
            return
        if interaction.response.is_done():
            if interaction.extras.pop(PUBLIC_DEFER, False):
                # Complete the public "thinking…" (followups edit it until then), answer
                # privately, then remove the public placeholder.
                await interaction.edit_original_response(content="…")
                await interaction.followup.send(text, ephemeral=True)
                await interaction.delete_original_response()
                return
            await interaction.followup.send(text, ephemeral=True)
            answered(interaction)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error")


def _escaped(value: Any) -> Any:
    """A refusal's field with what users typed or named themselves escaped (a train's
    owner is a player's name)."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, TrainWord):
        return replace(value, owner=plain(value.owner))
    if isinstance(value, tuple):
        return tuple(_escaped(v) for v in value)
    return value


@contextlib.contextmanager
def only_logged(message: str, *args: object) -> Iterator[None]:
    """Around telling the user of a change that is saved already: Discord refusing it is
    only logged (``message`` with ``args``), since a "please try again" would be untrue."""
    try:
        yield
    except discord.HTTPException:
        log.warning(message, *args, exc_info=True)


async def answer(interaction: discord.Interaction, *args: Any, **kwargs: Any) -> None:
    """Send a deferred interaction's answer, privately (a followup of its "thinking…")."""
    await interaction.followup.send(*args, ephemeral=True, **kwargs)
    answered(interaction)


async def confirm(interaction: discord.Interaction, message: str, **fields: Any) -> None:
    """Tell the user, privately and in their language, that a saved change is done
    (``message`` a msgid with its ``fields``)."""
    text = Translator.for_locale(interaction.locale)(message, **fields)
    with only_logged("could not confirm a saved change to the user"):
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
        answered(interaction)


def refusing(func: Handler[CogT, P]) -> Handler[CogT, P]:
    """A command whose refusals (:class:`GameError`) are polite ephemeral replies, and
    whose interaction may carry its channel's table once answered (:mod:`.carriers`)."""

    @functools.wraps(func)
    async def wrapper(
        cog: CogT, interaction: discord.Interaction, /, *args: P.args, **kw: P.kwargs
    ) -> None:
        async with carrying(interaction):
            try:
                await func(cog, interaction, *args, **kw)
            except GameError as error:
                await reply_error(interaction, error)

    # discord.py reads the command's parameters from the signature and resolves their
    # annotations in the callback's module: resolved here, in the command's own module.
    wrapper.__signature__ = inspect.signature(func, eval_str=True)  # type: ignore[attr-defined]
    return wrapper


def deferring(func: Handler[CogT, P]) -> Handler[CogT, P]:
    """:func:`refusing`, for a command acknowledged privately before it acts."""

    @functools.wraps(func)
    async def deferred(
        cog: CogT, interaction: discord.Interaction, /, *args: P.args, **kw: P.kwargs
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        await func(cog, interaction, *args, **kw)

    return refusing(deferred)
