"""A database password is never shown, in any form a ``DATABASE_URL`` can carry it
(issue 37, row 3): not in the settings, the start and close log lines, nor an outage's
message (the one line on stderr: tests/test_cli.py).

Each form is checked on its own (``redacted``, the settings' refusal or repr), then the
real paths run against the session's PostgreSQL server (tests/postgres_support.py) with
the password in each place it can be: the URL's user part, ``?password=``, the key
and the value percent-encoded.
"""

from __future__ import annotations

import logging
from urllib.parse import quote, urlsplit

import pytest
from postgres_support import PASSWORD, USER, Cluster

from bot.settings import Settings, SettingsError
from bot.storage import Database, DatabaseUnavailableError
from bot.storage.postgres import server_problem
from bot.storage.urls import redacted, scrub

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
S = "Tr0ub4dor"

# (the URL, the strings that must never show, whether the settings take it)
FORMS = [
    (f"postgresql://bot:{S}@db:5432/dominobot", [S], True),
    (f"postgresql://bot@db/dominobot?password={S}", [S], True),
    (f"postgresql://bot@db/dominobot?sslmode=require&password={S}&application_name=x", [S], True),
    (f"postgresql:///dominobot?user=bot&password={S}&host=/run/postgresql", [S], True),
    (f"postgresql://bot@db/dominobot?pass%77ord={S}", [S], True),  # the key encoded
    ("postgresql://bot@db/dominobot?password=Tr0%75b4dor", [S, "Tr0%75b4dor"], True),
    ("postgresql://bot@db/dominobot?password=Tr0ub+4dor", ["Tr0ub 4dor", "Tr0ub+4dor"], True),
    (f"postgresql://bot@db/dominobot?PASSWORD={S}", [S], True),
    (f"postgresql://bot@db/dominobot?sslpassword={S}&sslkey=/k", [S], True),
    (f"postgresql://bot@db/dominobot?password={S}&password=0ther-Pw", [S, "0ther-Pw"], True),
    (f"postgresql://bot:{S}@db/dominobot?password=0ther-Pw", [S, "0ther-Pw"], True),
    # user:pass@ with special characters, percent-encoded as they must be
    (
        "postgresql://bot:Tr0%40ub%3F4%2Fd%3Aor%23@db/x",
        ["Tr0%40ub%3F4%2Fd%3Aor%23", "Tr0@ub?4/d:or#"],
        True,
    ),
    (f"postgresql://b%40t%3Ax:{S}@db/dominobot", [S], True),
    (f"postgresql://bot:{quote('Tr0 ub4dor')}@db/x", ["Tr0%20ub4dor", "Tr0 ub4dor"], True),
    # without a host, a user, or both
    (f"postgresql://bot:{S}@/dominobot?host=/run/postgresql", [S], True),
    (f"postgresql://:{S}@/dominobot", [S], True),
    (f"postgresql://bot:{S}@db1:5432,db2:5433/dominobot", [S], False),  # one host only
    (f"postgresql://bot:{S}@[::1]:5432/dominobot", [S], True),
    (f"POSTGRES://bot:{S}@db/dominobot", [S], True),
    # refused: read differently by libpq, asyncpg and urlsplit, or not a URL at all
    ("postgresql://bot:Tr0ub?4dor@db/dominobot", ["Tr0ub", "4dor"], False),
    ("postgresql://bot:Tr0ub/4dor@db/dominobot", ["Tr0ub", "4dor"], False),
    ("postgresql://bot:Tr0ub#4dor@db/dominobot", ["Tr0ub", "4dor"], False),
    ("postgresql://bot:Tr0ub@4dor@db/dominobot", ["Tr0ub", "4dor"], False),
    (f"postgres://bot:{S}", [S], False),  # no host: the password reads as a port
    (f"postgres://bot:{S}/dominobot", [S], False),
    (f"postgresql://bot@db/dominobot?password={S}#x", [S], False),
    (f"host=db user=bot password={S} dbname=dominobot", [S], False),  # libpq's key=value
    ("host=db password='Tr0ub 4dor'", ["Tr0ub", "4dor"], False),
    (f"postgresql://bot:{S}@db/domino bot", [S], False),
]


def never_shows(text: str, secrets: list[str]) -> None:
    for secret in secrets:
        assert secret not in text, text


@pytest.mark.parametrize(("url", "secrets", "taken"), FORMS)
def test_each_form_of_password_is_hidden_and_refused_forms_say_so(url, secrets, taken):
    never_shows(redacted(url), secrets)
    never_shows(scrub(f"asyncpg said: {url} {' '.join(secrets)}", url), secrets)
    env = {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}
    if taken:
        settings = Settings.from_env(env)
        assert settings.database_url == url
        never_shows(repr(settings), secrets)
        return
    with pytest.raises(SettingsError) as info:
        Settings.from_env(env)
    assert str(info.value).startswith("DATABASE_URL ")
    never_shows(str(info.value), secrets)


def test_a_hidden_url_still_says_where():
    assert redacted(f"postgresql://bot:{S}@db.example:5432/dominobot?sslmode=require") == (
        "postgresql://bot:***@db.example:5432/dominobot?sslmode=require"
    )
    assert redacted(f"postgresql:///dominobot?host=/run/postgresql&password={S}") == (
        "postgresql:///dominobot?host=/run/postgresql&password=***"
    )
    assert redacted("postgresql:///dominobot?host=/run/postgresql") == (
        "postgresql:///dominobot?host=/run/postgresql"
    )


def real_forms(cluster: Cluster, database: str) -> list[str]:
    """The session server's URL with its real password in each place it can be."""
    folder = cluster.folder
    return [
        f"postgresql://{USER}:{PASSWORD}@/{database}?host={folder}",
        f"postgresql://{USER}@/{database}?host={folder}&password={PASSWORD}",
        f"postgresql://{USER}@/{database}?pass%77ord={quote(PASSWORD, safe='')}&host={folder}",
        f"postgresql://{USER}:{PASSWORD.replace('-', '%2D')}@/{database}?host={folder}",
    ]


async def test_start_close_and_outage_never_show_the_password(postgres, caplog):
    url = await postgres.create_database()
    database = urlsplit(url).path.lstrip("/")
    shown: list[str] = []
    try:
        with caplog.at_level(logging.DEBUG):
            for form in real_forms(postgres, database):
                db = await Database.open(form)  # the login works with each form
                await db.guilds.set_language(1, "fi")
                shown.append(db.path)
                await db.close()
                gone = form.replace(f"host={postgres.folder}", "host=/nonexistent")
                with pytest.raises(DatabaseUnavailableError) as outage:
                    await Database.open(gone)
                shown.append(str(outage.value))
                problem = await server_problem(gone)
                assert problem is not None
                shown.append(problem[0])
                wrong = form.replace("%2D", "-").replace(PASSWORD, "Wr0ng-Tr0ub4dor")
                refused = await server_problem(wrong)
                assert refused is not None
                assert "refused the login" in refused[0]
                shown.append(refused[0])
        shown += [r.getMessage() for r in caplog.records]
        assert any("opened database" in line for line in shown)
        assert any("closed database" in line for line in shown)
        for line in shown:
            never_shows(line, [PASSWORD, "Wr0ng-Tr0ub4dor", "Tr0ub4dor", "dominobot%2Dtest"])
    finally:
        await postgres.drop_database(url)
