"""``bench/master_screens.py`` (the rows of docs/bots.md's Master changed for the run): it plays deals as the arena
does, records what it changed, refuses to mix settings in one file, goes on where it stopped, and compares."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tienlen.bots.arena import ArenaConfig, play_deal

ROOT = Path(__file__).resolve().parents[1]
SCREENS = [sys.executable, str(ROOT / "bench" / "master_screens.py")]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SCREENS, *args], capture_output=True, text=True, timeout=300, check=False)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_screened_deal_is_played_as_the_arena_plays_it_and_the_file_says_how(tmp_path: Path) -> None:
    out = tmp_path / "hard.jsonl"
    played = _run("play", str(out), "--level", "hard", "--seed", "5", "--deals", "0:1", "--processes", "1")
    assert played.returncode == 0, played.stderr[-2000:]
    header, line = _lines(out)
    assert header == {"level": "hard", "opponent": "medium", "seed": 5, "settings": {}, "true_deals": False}
    arena = play_deal(ArenaConfig(tested="hard", opponent="medium", deals=1, preset="standard", seed=5), 0)
    assert line == {"deal": 0, "firsts": arena.firsts, "points": arena.points}


def test_a_run_goes_on_where_it_stopped_and_never_mixes_settings(tmp_path: Path) -> None:
    out = tmp_path / "screen.jsonl"
    first = ["play", str(out), "--level", "hard", "--processes", "1", "--set", "endgame_cards=8"]
    assert _run(*first, "--deals", "0:1").returncode == 0
    assert _run(*first, "--deals", "0:2").returncode == 0  # only deal 1 is played now
    lines = _lines(out)
    assert lines[0]["settings"] == {"endgame_cards": "8"}
    assert sorted(line["deal"] for line in lines[1:]) == [0, 1]
    before = out.read_text()
    other = _run("play", str(out), "--level", "hard", "--processes", "1", "--deals", "0:3")
    assert other.returncode == 2 and "was played with" in other.stderr
    assert out.read_text() == before, "a refused run wrote nothing"
    unknown = _run("play", str(out), "--set", "playouts=9")
    assert unknown.returncode == 2 and "NAME=VALUE with NAME one of net_weight" in unknown.stderr


def test_the_cheating_search_is_recorded_and_compare_gives_the_paired_difference(tmp_path: Path) -> None:
    honest, cheating = tmp_path / "honest.jsonl", tmp_path / "true.jsonl"
    assert _run("play", str(honest), "--level", "hard", "--deals", "0:2", "--processes", "1").returncode == 0
    played = _run("play", str(cheating), "--level", "hard", "--deals", "1:2", "--processes", "1", "--true-deals")
    assert played.returncode == 0, played.stderr[-2000:]
    assert _lines(cheating)[0]["true_deals"] is True
    compared = _run("compare", str(cheating), str(honest))
    assert compared.returncode == 0, compared.stderr[-2000:]
    summary = json.loads(compared.stdout)
    assert summary["deals"] == 1 and summary["versus"]["deals"] == 1  # deal 1 only: the deals both played
    assert 0 <= summary["versus"]["alike"] <= 1
    mine, theirs = _lines(cheating)[1], next(line for line in _lines(honest)[1:] if line["deal"] == 1)
    expected = (sum(mine["firsts"]) - sum(theirs["firsts"])) / 4
    assert summary["versus"]["first_rate"] == round(expected, 4)


def test_a_screen_of_fewer_network_moves_at_another_effort_records_both_settings(tmp_path: Path) -> None:
    out = tmp_path / "led.jsonl"
    settings = ["--set", "net_moves=1", "--set", "search_effort=1"]
    played = _run("play", str(out), "--seed", "3", "--deals", "0:1", "--processes", "1", *settings)
    assert played.returncode == 0, played.stderr[-2000:]
    header, line = _lines(out)
    assert header["level"] == "master" and header["settings"] == {"net_moves": "1", "search_effort": "1"}
    assert line["deal"] == 0 and len(line["firsts"]) == len(line["points"]) == 4
