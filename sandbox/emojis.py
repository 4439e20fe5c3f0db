"""Application emojis: ``GET``/``POST /applications/{app}/emojis`` and ``DELETE .../emojis/{id}``.

As Discord: the list comes as ``{"items": [...]}``; a new emoji's ``image`` is a data URI
(``data:image/png;base64,...``) of at most 256 KB; its name is 2–32 characters of
``[A-Za-z0-9_]`` and unique within the application; an application has at most 2,000 emojis.
A bad request is 400 (Invalid Form Body 50035 naming the field; 30008 past the limit) and
changes nothing. Another application's id is 403 Missing Access (50001). The stored emojis keep
their decoded image bytes, for tests to look at (``fake.application_emojis``).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .models import make_snowflake
from .wire import JSON, DiscordHTTPError, _not_found, invalid_form_body

EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
"""What Discord accepts as an emoji's name."""

MAX_APPLICATION_EMOJIS = 2000
"""Discord's limit on an application's emojis."""

MAX_EMOJI_BYTES = 256 * 1024
"""Discord's limit on an emoji's image (256 KB)."""

_DATA_URI = re.compile(r"data:image/(png|jpeg|gif|webp);base64,(.*)", re.S)


@dataclass
class FakeEmoji:
    """An application emoji the loopback Discord keeps: id, name and the image's bytes and type."""

    id: int
    name: str
    image: bytes
    content_type: str = "image/png"

    def to_payload(self, owner: JSON) -> JSON:
        """The emoji object as Discord sends it (``owner``: the bot user's payload)."""
        return {"id": str(self.id), "name": self.name, "roles": [], "user": owner, "require_colons": True,
                "managed": False, "animated": self.content_type == "image/gif", "available": True}


class EmojiMixin:
    """The application emoji routes, added to the REST routes of :class:`~sandbox.server.FakeDiscord`."""

    application_emojis: dict[int, FakeEmoji]

    def add_application_emoji(self, name: str, image: bytes = b"\x89PNG\r\n\x1a\n") -> FakeEmoji:
        """Stores an emoji as if the application had uploaded it earlier (no request is recorded)."""
        emoji = FakeEmoji(make_snowflake(), name, image)
        self.application_emojis[emoji.id] = emoji
        return emoji

    def _routes(self) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[Any]], bool]]:
        r = re.compile
        return [
            *super()._routes(),  # type: ignore[misc]
            ("GET", r(r"/applications/(\d+)/emojis"), self._list_emojis, True),
            ("POST", r(r"/applications/(\d+)/emojis"), self._create_emoji, True),
            ("DELETE", r(r"/applications/(\d+)/emojis/(\d+)"), self._delete_emoji, True),
        ]

    def _own_application(self, app_id: str) -> None:
        if int(app_id) != self.application_id:  # type: ignore[attr-defined]
            raise DiscordHTTPError(403, 50001, "Missing Access")

    def _emoji_owner(self) -> JSON:
        return self.bot_user.to_payload()  # type: ignore[attr-defined,no-any-return]

    async def _list_emojis(self, request: web.Request, body: JSON, app_id: str) -> JSON:
        self._own_application(app_id)
        owner = self._emoji_owner()
        return {"items": [e.to_payload(owner) for e in self.application_emojis.values()]}

    async def _create_emoji(self, request: web.Request, body: Any, app_id: str) -> JSON:
        self._own_application(app_id)
        body = body if isinstance(body, dict) else {}
        errors: JSON = {}
        name = body.get("name")
        if not isinstance(name, str) or not 2 <= len(name) <= 32:
            errors["name"] = _form_error("BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
        elif not EMOJI_NAME.fullmatch(name):
            errors["name"] = _form_error("STRING_TYPE_REGEX", "String value did not match validation regex.")
        elif any(e.name == name for e in self.application_emojis.values()):
            errors["name"] = _form_error("APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                                         "Application emoji name already taken.")
        image, content_type = _decode_image(body.get("image"), errors)
        if errors:
            raise invalid_form_body(errors)
        if len(self.application_emojis) >= MAX_APPLICATION_EMOJIS:
            raise DiscordHTTPError(400, 30008, f"Maximum number of emojis reached ({MAX_APPLICATION_EMOJIS})")
        emoji = FakeEmoji(make_snowflake(), name, image, content_type)  # type: ignore[arg-type]
        self.application_emojis[emoji.id] = emoji
        return emoji.to_payload(self._emoji_owner())

    async def _delete_emoji(self, request: web.Request, body: JSON, app_id: str, emoji_id: str) -> None:
        self._own_application(app_id)
        if self.application_emojis.pop(int(emoji_id), None) is None:
            raise _not_found("Emoji", 10014)


def _form_error(code: str, message: str) -> JSON:
    return {"_errors": [{"code": code, "message": message}]}


def _decode_image(uri: Any, errors: JSON) -> tuple[bytes, str]:
    """The bytes and type of an ``image`` data URI; a problem goes into *errors* under ``image``."""
    match = _DATA_URI.fullmatch(uri) if isinstance(uri, str) else None
    if match is None:
        errors["image"] = _form_error("IMAGE_INVALID", "Invalid image data")
        return b"", ""
    try:
        data = base64.b64decode(match[2], validate=True)
    except (binascii.Error, ValueError):
        errors["image"] = _form_error("IMAGE_INVALID", "Invalid image data")
        return b"", ""
    if len(data) > MAX_EMOJI_BYTES:
        errors["image"] = _form_error("BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    return data, f"image/{match[1]}"
