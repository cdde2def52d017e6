"""Room codes: six characters that find a match waiting for players, read aloud or typed on a phone.

The alphabet leaves out the characters that look alike (0 and O, 1, I and
L); a code is read in any case. Looking up codes that name no match is
counted per client address: past :data:`MAX_ROOM_MISSES` in
:data:`ROOM_MISS_WINDOW_S` every lookup from that address is refused
(``rate_limited``) until the window ends, so codes cannot be guessed.
"""

from __future__ import annotations

import re
import secrets

from .errors import InvalidRequest

ROOM_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
ROOM_CODE_LENGTH = 6
MAX_ROOM_MISSES = 20  # lookups of unknown codes from one address in the window
ROOM_MISS_WINDOW_S = 10 * 60
ROOMS_THROTTLE = "rooms"  # the lookup counters' throttle in the store
_CODE = re.compile(f"[{ROOM_ALPHABET}]{{{ROOM_CODE_LENGTH}}}")


def new_room_code() -> str:
    """A random room code (about 30 bits)."""
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


def read_room_code(text: str) -> str:
    """A code as typed, in capitals; :class:`InvalidRequest` when it cannot be a room code."""
    code = text.strip().upper()
    if not _CODE.fullmatch(code):
        raise InvalidRequest(
            f"a room code is {ROOM_CODE_LENGTH} characters of {ROOM_ALPHABET} (in any case)",
            errors={"code": ["not a room code"]},
        )
    return code
