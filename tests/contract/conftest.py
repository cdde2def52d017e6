"""The node tools of the contract checks: clients/web's devDependencies (openapi-typescript, tsc, redocly)."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.tools import require_tool

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "clients" / "web"  # its package.json and lock bring the tools (clients/web/check.sh installs them)
NODE_TOOLS = ("tsc", "openapi-typescript", "redocly")


@pytest.fixture(scope="session")
def node_tools() -> Path:
    """clients/web's node_modules/.bin, installed from its lock file (npm ci) when a tool is missing.

    One install at a time: the test workers share clients/web.
    """
    found = shutil.which("node") is not None and shutil.which("npm") is not None
    require_tool("node", found, "install Node.js 20+ and npm (apt-get install nodejs npm)")
    bin_dir = WEB / "node_modules" / ".bin"
    with open(Path(tempfile.gettempdir()) / "tienlen-web-npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all((bin_dir / tool).exists() for tool in NODE_TOOLS):
            installed = subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=WEB, capture_output=True, text=True
            )
            assert installed.returncode == 0, installed.stderr
    return bin_dir
