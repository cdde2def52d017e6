"""An SDK generated from the committed OpenAPI document plays against a real server."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """Generate the Python SDK with openapi-python-client and import it."""
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert generator is not None, "openapi-python-client is missing: it is in the dev extra (make install)"
    where = tmp_path_factory.mktemp("sdk")
    subprocess.run(
        [
            generator,
            "generate",
            "--path",
            str(ROOT / "openapi" / "openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(where / "tienlen_sdk"),
        ],
        check=True,
        capture_output=True,
        cwd=where,
    )
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("tienlen_sdk")
    finally:
        sys.path.remove(str(where))


def test_generated_sdk_creates_a_match_reads_its_view_and_plays(sdk: ModuleType, live_server: str) -> None:
    from tienlen_sdk.api.matches import create_match
    from tienlen_sdk.api.seats import get_legal_plays, get_seat_view, post_action
    from tienlen_sdk.models import Action, CreateMatch, Error

    client = sdk.Client(base_url=live_server)
    body = CreateMatch.from_dict({"seats": [{"name": "Ann"}, {"name": "Bo", "bot": "medium"}], "seed": 5})
    created = create_match.sync(client=client, body=body)
    assert created is not None and not isinstance(created, Error)
    seat = sdk.AuthenticatedClient(base_url=live_server, token=created.tokens[0].token)
    view = get_seat_view.sync(created.match_id, client=seat)
    assert view.seat == 0 and view.turn == 0 and len(view.cards) == 13
    legal = get_legal_plays.sync(created.match_id, client=seat)
    move = {"type": "play", "cards": legal.plays[0].cards} if legal.plays else {"type": "pass"}
    after = post_action.sync(created.match_id, client=seat, body=Action.from_dict(move))
    assert not isinstance(after, Error) and after.version > view.version
    refused = post_action.sync(created.match_id, client=seat, body=Action.from_dict({"type": "play", "cards": ["ZZ"]}))
    assert isinstance(refused, Error) and refused.reason in {"unknown_card", "not_your_turn", "match_not_playing"}
