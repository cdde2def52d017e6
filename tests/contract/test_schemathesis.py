"""schemathesis over the whole committed OpenAPI document against a real server, bounded to stay quick.

Each run generates positive and negative data for every operation (coverage
and fuzzing phases) and checks: no 5xx, every status and header documented,
every JSON answer matching its schema, negative data refused. One run sends no
token, one a seat's token; the path's match is a real one in play. A third run
checks that schema-valid creates succeed.

The streams (``stream_events``, and ``stream_tournament_events`` alike on a
tournament that is over or none) are in both runs, on a match whose answer is
bounded, so no request stays open: in the run without a token a finished
match (200 with what the match has after ``after``, then the end; 204 when
nothing is; 422 for a bad ``after`` or ``Last-Event-ID``), checked for
statuses, content type, headers and negative data but not against the 200's
schema: that schema is a string (what SDK generators need), which
schemathesis reads as the schema of each event and every event, an object,
breaks; the events themselves are checked in tests/api/test_api_stream.py. In
the run with a token a match that does not exist (404 ``match_not_found``,
422), checked against every schema, its error bodies included.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ST = Path(sys.executable).parent / "st"
CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
]
# Fuzzing's examples per operation. The coverage phase is what meets every case's shape: it is deterministic and
# not bounded by this number (about 1,370 cases a run over the 44 operations: each parameter's and body field's
# boundaries, every kind of wrong value, missing required parts, unexpected methods). Fuzzing adds random
# combinations on top; 10 an operation (about 440 a run, down from 880 at 20) still sends each operation valid and
# invalid bodies, and cuts a run by about a sixth (2,196 cases to 1,806, both runs measured with --seed 7).
EXAMPLES = 10


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def matches(base: str) -> tuple[str, str, str]:
    """A match in play (its id and a seat's token) and a finished one."""
    playing = post(base, "/v1/matches", {"seats": [{"name": "A"}, {"name": "B"}, {"name": "C", "bot": "easy"}]})
    quick = {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"preset": "ladder"}, "deal": [["3S"], ["4S"]]}
    finished = post(base, "/v1/matches", quick)
    token = finished["tokens"][0]["token"]
    post(base, f"/v1/matches/{finished['match_id']}/actions", {"type": "play", "cards": ["3S"]}, token)
    return playing["match_id"], playing["tokens"][0]["token"], finished["match_id"]


def over_tournament(base: str) -> str:
    """A tournament that is over (its creator cancelled it): its stream sends what it has, then ends."""
    name = "st" + uuid.uuid4().hex[:12]
    token = post(base, "/v1/accounts", {"name": name, "password": "a long password!", "kind": "human"})["token"]
    body = {"name": "Over", "format": "swiss", "rounds": 1, "starts_at": "2100-01-01T00:00:00Z"}
    made = post(base, "/v1/tournaments", body, token)["tournament_id"]
    request = urllib.request.Request(f"{base}/v1/tournaments/{made}", method="DELETE")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10):
        pass
    return str(made)


def run(where: Path, base: str, config: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``st run`` over openapi/openapi.json with ``config`` (TOML) and more options."""
    (where / "schemathesis.toml").write_text(config)
    spec = str(ROOT / "openapi" / "openapi.json")
    command = [str(ST), "--config-file", str(where / "schemathesis.toml"), "run", spec]
    options = ["--url", base, "--seed", "7", "--no-color", "--generation-database", "none", "--workers", "1"]
    options += ["--max-examples", str(EXAMPLES), "--phases", "coverage,fuzzing", "--request-timeout", "10"]
    return subprocess.run([*command, *options, *args], capture_output=True, text=True, timeout=240, cwd=where)


def config_for(playing: str, stream: str, stream_checks: str, tournament: str) -> str:
    """Real match ids in the path, no long waits (a long poll's wait is checked elsewhere), the checks of CHECKS.

    ``stream`` is the stream's match, with ``stream_checks`` (TOML) for that operation only. The checks are
    chosen here, not on the command line, so that an operation's own settings can turn one off.
    """
    chosen = "\n".join(f"{name}.enabled = true" for name in CHECKS)
    return f"""
[parameters]
"path.match_id" = "{playing}"
"query.wait" = 0

[checks]
enabled = false
{chosen}
# negative data may be a request line too long for the server: refused (414 uri_too_long) before the app
negative_data_rejection.expected-statuses = ["400", "401", "403", "404", "406", "414", "422", "428"]

[[operations]]
include-operation-id = "stream_events"
parameters = {{ "path.match_id" = "{stream}" }}
{stream_checks}

[[operations]]
include-operation-id = "stream_tournament_events"
parameters = {{ "path.tournament_id" = "{tournament}" }}
{stream_checks}
"""


# The stream's 200 events break its string schema (see the module's docstring): not checked against it.
FINISHED_STREAM = "checks.response_schema_conformance.enabled = false"
# Every answer is 404 by design: no "missing test data" warning about it.
UNKNOWN_STREAM = "warnings = false"
UNKNOWN_MATCH = "0123456789abcdef0123"
UNKNOWN_TOURNAMENT = "0123456789abcdef0123"


@pytest.mark.parametrize("with_token", [False, True], ids=["no token", "seat token"])
def test_schemathesis_finds_no_5xx_and_no_answer_that_breaks_the_schema(
    live_server: str, tmp_path: Path, with_token: bool
) -> None:
    playing, token, finished = matches(live_server)
    auth = ["--header", f"Authorization: Bearer {token}"] if with_token else []
    stream = (UNKNOWN_MATCH, UNKNOWN_STREAM) if with_token else (finished, FINISHED_STREAM)
    tournament = UNKNOWN_TOURNAMENT if with_token else over_tournament(live_server)
    result = run(tmp_path, live_server, config_for(playing, *stream, tournament), *auth)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    every = re.search(r"Selected: (\d+)/\1\s+Tested: \1\b", result.stdout)
    assert every, "every operation, the stream included, is tested: " + result.stdout[-3000:]


def test_schema_valid_creates_succeed(live_server: str) -> None:
    """Every create body the schema allows is accepted (201), but for the deals' own rules (real cards, none twice)."""
    import schemathesis
    from hypothesis import HealthCheck, assume, given, settings

    create = schemathesis.openapi.from_path(ROOT / "openapi" / "openapi.json")["/v1/matches"]["POST"]
    seen: list[int] = []

    @given(create.as_strategy(generation_mode=schemathesis.GenerationMode.POSITIVE))
    @settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def creates(case: Any) -> None:
        assume("deal" not in case.body)  # JSON Schema cannot say "no card twice"
        if case.headers and "Idempotency-Key" in case.headers:  # a key names one create: a new one per body
            case.headers["Idempotency-Key"] = str(uuid.uuid4())
        response = case.call(base_url=live_server)
        assert response.status_code == 201, (case.body, response.text)
        seen.append(len(case.body["seats"]))

    creates()
    assert len(seen) >= 20 and set(seen) == {2, 3, 4}, seen
