"""Names: an account's matched whole and compared as folded, the reserved ones refused in any form; seat names visible.

Rules checked: an account name with a trailing newline is refused (422); names are unique after NFKC and case
folding, and the house bots' names and ``(deleted)`` are refused in any case, width, compatibility form or with
spaces or invisible characters around them (409 ``name_taken``); an ASCII name's index key is what it always was
(accounts made before keep working); a seat's name holding a control, format (zero-width, bidi) or line-separator
character is refused (422 ``invalid_request``) at create and at join, and changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, fresh_name, sign_up
from tienlen.api.services import services_of
from tienlen.service.accounts import AccountService
from tienlen.service.errors import InvalidRequest, NameTaken
from tienlen.store.accounts import AccountRecord
from tienlen.store.redis_accounts import name_key

# Each passes the old name pattern (``re.match`` with ``$`` lets one trailing newline through).
NEWLINE_NAMES = ["hard\n", "easy\n", "expert\n", "HARD\n", "fresh{}\n"]

# Each is a house bot's name or "(deleted)" in another form; the API's name rule refuses most of them already,
# so they are registered through the service, which must refuse them itself.
RESERVED_FORMS = [
    "ＨＡＲＤ",  # fullwidth
    "ｅａｓｙ",
    "ℍ𝕒𝕣𝕕",  # mathematical letters, NFKC "Hard"
    "Ｅxpert",
    " hard",
    "hard ",
    "\thard\n",
    "ha\u200brd",  # a zero-width space inside
    "\u2066medium\u2069",  # bidi isolates around
    "medium\u00ad",  # a soft hyphen
    "(deleted)",
    "(DELETED)",
    "（deleted）",  # fullwidth parentheses
    " (deleted) ",
]

# Bad seat names: controls (Cc), format characters (Cf: zero-width, bidi controls), line and paragraph separators.
BAD_SEAT_NAMES = [
    "Ann\n",
    "Ann\r",
    "\tAnn",
    "An\x00n",
    "Ann\x1b[31m",
    "Ann\x7f",
    "Ann\x85",
    "An\u200bn",  # zero width space
    "An\u200cn",  # zero width non-joiner
    "An\u200dn",  # zero width joiner
    "\u2060Ann",  # word joiner
    "\ufeffAnn",  # zero width no-break space (BOM)
    "Ann\u200e",  # left-to-right mark
    "Ann\u200f",  # right-to-left mark
    "\u202aAnn",
    "\u202bAnn",
    "\u202cAnn",
    "\u202dAnn",
    "\u202eAnn",  # right-to-left override
    "\u2066Ann",
    "\u2067Ann",
    "\u2068Ann",
    "\u2069Ann",
    "Ann\u2028",  # line separator
    "Ann\u2029",  # paragraph separator
    "\u3164",  # Hangul filler: shows as nothing
]

GOOD_SEAT_NAMES = ["Ann", "Nguyễn Thị Lan", "李小龍", "O'Brien", "Ann-Marie (guest)", "😀 Bo", "ﾀﾛｳ"]


def _service(app: Flask) -> AccountService:
    service: AccountService = services_of(app).accounts
    return service


@pytest.mark.parametrize("name", NEWLINE_NAMES)
def test_an_account_name_with_a_trailing_newline_is_refused(client: FlaskClient, name: str) -> None:
    """Rule: the name rule matches the whole name: a trailing newline is refused (422), nothing is made."""
    name = name.format(secrets.token_hex(3))
    answer = client.post("/v1/accounts", json={"name": name, "password": PASSWORD, "kind": "bot"})
    assert answer.status_code == 422, answer.json
    assert answer.get_json()["reason"] == "invalid_request"
    assert client.post("/v1/sessions", json={"name": name, "password": PASSWORD}).status_code == 401


@pytest.mark.parametrize("name", RESERVED_FORMS)
def test_a_reserved_name_is_refused_in_any_form(app: Flask, name: str) -> None:
    """Rule: the house bots' names and "(deleted)" are refused whatever their case, width, compatibility form,
    surrounding spaces or invisible characters (name_taken)."""
    with pytest.raises(NameTaken):
        _service(app).register(name, PASSWORD, "bot")


@pytest.mark.parametrize(
    ("first", "second"),
    [("straße{}", "STRASSE{}"), ("ﬁ{}", "FI{}"), ("Ｋ{}", "k{}"), ("ｱ{}", "ア{}"), ("Ⅻ{}", "xii{}")],
)
def test_names_are_unique_after_normalising_and_folding(app: Flask, first: str, second: str) -> None:
    """Rule: the store keeps one account a name once folded (NFKC, then case folding): the second is not made."""
    stem = secrets.token_hex(4)
    store = _service(app).store
    made = [
        store.create(AccountRecord(secrets.token_hex(10), name.format(stem), "human", time.time(), "hash"))
        for name in (first, second)
    ]
    assert made == [True, False]


@pytest.mark.parametrize("name", ["fresh{}\n", "fresh{}\r\n", "fresh{} ", "ｆｒｅｓｈ{}"])
def test_the_service_itself_takes_only_names_the_rule_matches_whole(app: Flask, name: str) -> None:
    """Rule: the account service checks the name rule too (fullmatch), not only the API's schema."""
    with pytest.raises(InvalidRequest):
        _service(app).register(name.format(secrets.token_hex(3)), PASSWORD, "human")


def test_an_ascii_names_key_is_what_it_was_so_accounts_made_before_keep_working(client: FlaskClient) -> None:
    """Rule: for the names the API takes (ASCII) the folded key is the lower-case one the store always used."""
    name = fresh_name("Ann")
    sign_up(client, name)
    assert name_key(name) == f"tl:{{name:{hashlib.sha256(name.lower().encode()).hexdigest()[:32]}}}"
    login = client.post("/v1/sessions", json={"name": name.upper(), "password": PASSWORD})
    assert login.status_code == 201, login.json


@pytest.mark.parametrize("name", BAD_SEAT_NAMES)
def test_a_seat_name_with_an_invisible_or_control_character_is_refused(client: FlaskClient, name: str) -> None:
    """Rule: a seat's name may hold no control, format (zero-width, bidi) or line-separator character: 422
    invalid_request at create and at join, naming the field; nothing is made."""
    created = client.post("/v1/matches", json={"seats": [{"name": name}, {"name": "Bo", "bot": "easy"}]})
    assert created.status_code == 422, created.json
    assert created.get_json()["reason"] == "invalid_request"
    assert "seats" in created.get_json()["errors"]["json"]
    hosted = client.post("/v1/matches", json={"seats": [{"name": "Ann"}, {"open": True}]})
    assert hosted.status_code == 201, hosted.json
    match_id = hosted.get_json()["match_id"]
    joined = client.post(f"/v1/matches/{match_id}/join", json={"name": name})
    assert joined.status_code == 422, joined.json
    assert joined.get_json()["reason"] == "invalid_request"
    assert client.get(f"/v1/matches/{match_id}").get_json()["seats"][1]["open"]


@pytest.mark.parametrize("name", GOOD_SEAT_NAMES)
def test_a_seat_name_in_any_script_is_taken(client: FlaskClient, name: str) -> None:
    """Rule: visible names in any script (and emoji) stay valid seat names."""
    created = client.post("/v1/matches", json={"seats": [{"name": name}, {"name": "Bo", "bot": "easy"}]})
    assert created.status_code == 201, created.json
    assert created.get_json()["match"]["seats"][0]["name"] == name
