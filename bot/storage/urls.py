"""A database URL as people may read it: never its password, in any form it can be given.

A ``DATABASE_URL`` can carry a password in several places, and the drivers do not agree
on where the user's part ends: ``user:password@`` (libpq ends it at the first ``@``
before a ``/``, asyncpg at the first ``@`` before a ``/``, ``?`` or ``#``; Python's
``urlsplit`` at the last), ``?password=`` (``?sslpassword=``) in the query, with the
key or the value percent-encoded or ``+`` for a space, and, in a URL without a host,
a password that reads as a port (``postgres://user:secret``). libpq's other form,
``key=value`` words (``host=db password=secret``), is not a URL (the settings refuse
it) but is shown the same way.

:func:`redacted` is the URL to show: it hides whatever *any* of those readings could
take for a password (the whole user part if it is not plainly a name, every query
value whose key names a password, a port that is not a number). :func:`scrub` hides
every such string in another text (a driver's message may quote a piece of the URL).
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import unquote, unquote_plus

MASK: Final = "***"
_NOT_A_NAME = frozenset("/?#&=@:")
_KEYWORD_SECRET = re.compile(r"(\b\w*pass\w*\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)", re.IGNORECASE)


def is_secret_key(key: str) -> bool:
    """Whether a query key (as written) may name a password: ``password``,
    ``sslpassword``, in any case, percent-encoded or not, misspelt (``passwort``)."""
    name = unquote_plus(key).strip().lower()
    return "pass" in name and name != "passfile"


def redacted(url: str) -> str:
    """``url`` without anything that may be a password (see the module)."""
    scheme, sep, rest = url.partition("://")
    if not sep:  # not a URL: key=value words, or anything else
        return _KEYWORD_SECRET.sub(lambda m: m.group(1) + MASK, url)
    userinfo, at, tail = rest.rpartition("@")
    shown = scheme + sep
    if at:
        user, colon, _ = userinfo.partition(":")
        if _NOT_A_NAME & set(user):
            shown += MASK + "@"
        else:
            shown += user + (":" + MASK if colon else "") + "@"
    tail, hash_, _ = tail.partition("#")
    address, question, query = tail.partition("?")
    hosts, slash, path = address.partition("/")
    shown += ",".join(_host(h) for h in hosts.split(",")) + slash + path
    if question:
        shown += "?" + "&".join(_parameter(p) for p in query.split("&"))
    return shown + (hash_ + MASK if hash_ else "")


def _host(spec: str) -> str:
    """``host:port`` with a port that is not a number hidden (it may be a password)."""
    port = _port(spec)
    return spec if not port or port.isdigit() else f"{spec[: -len(port)]}{MASK}"


def _port(spec: str) -> str:
    """What follows the last ``:`` of a host's spec (``[v6]:port`` too), or ``""``."""
    return "" if spec.endswith("]") or ":" not in spec else spec.rpartition(":")[2]


def _parameter(pair: str) -> str:
    key, eq, _ = pair.partition("=")
    return f"{key}={MASK}" if eq and is_secret_key(key) else pair


def secrets(url: str) -> tuple[str, ...]:
    """Every string of ``url`` that one reading or another may take for its password, or
    show when it misreads one (a piece of it as a host, a port or a query field), as
    written and decoded, longest first."""
    found: set[str] = set()
    _, sep, rest = url.partition("://")
    if not sep:
        found.update(m.group(2).strip("'") for m in _KEYWORD_SECRET.finditer(url))
        found.update(piece for m in _KEYWORD_SECRET.finditer(url) for piece in _pieces(m[2]))
    else:
        found.update(_from_user_part(rest))
        query = re.split(r"[?#]", rest, maxsplit=1)[1] if re.search(r"[?#]", rest) else ""
        for part in re.split(r"[?&#]", query):
            key, eq, value = part.partition("=")
            if not eq:
                found.add(part)  # a malformed field, quoted back by the driver
            elif is_secret_key(key):
                found.add(value)
    decoded = {f(s) for s in found for f in (unquote, unquote_plus)}
    return tuple(sorted((found | decoded) - {""}, key=len, reverse=True))


def _from_user_part(rest: str) -> set[str]:
    """The password of each reading of ``user:password@host`` (see the module), and the
    pieces a reading that ends the user part too soon takes for a host or a port."""
    found: set[str] = set()
    before_path = rest.split("/", 1)[0]
    netloc = re.split(r"[/?#]", rest, maxsplit=1)[0]
    widest = rest.rpartition("@")[0]  # the last @ anywhere: this module's reading
    for userinfo in (
        widest,
        netloc.rpartition("@")[0],  # urlsplit
        netloc.partition("@")[0] if "@" in netloc else "",  # asyncpg
        before_path.partition("@")[0] if "@" in before_path else "",  # libpq
    ):
        user, colon, password = userinfo.partition(":")
        if colon:
            found.add(password)
        elif _NOT_A_NAME & set(user):
            found.add(user)
    user = re.match(r"[^:@/?#]*", widest)
    found.update(_pieces(widest[user.end() if user else 0 :]))
    for hosts in (rest.rpartition("@")[2], netloc.rpartition("@")[2], before_path):
        for spec in re.split(r"[/?#]", hosts, maxsplit=1)[0].split(","):
            port = _port(spec)
            if port and not port.isdigit():
                found.add(port)
    return found


def _pieces(secret: str) -> set[str]:
    """The parts of a password that a misreading may show apart (three characters or more:
    shorter ones would hide every such string in a message)."""
    return {p for p in re.split(r"[@:/?#&=' ]", secret) if len(p) >= 3}


def scrub(text: str, url: str) -> str:
    """``text`` with the URL and every string that may be its password hidden."""
    text = text.replace(url, redacted(url))
    for secret in secrets(url):
        text = text.replace(secret, MASK)
    return text
