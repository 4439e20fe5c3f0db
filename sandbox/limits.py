"""Discord's payload limits, checked the way Discord checks them.

``validate_message`` and ``validate_modal`` return ``None`` for a payload Discord accepts, or the
``errors`` tree of Discord's ``{"code": 50035, "message": "Invalid Form Body", "errors": ...}``
answer: nested dicts keyed by field name or list index, each leaf ``{"_errors": [{"code",
"message"}]}``. discord.py flattens that tree into the text of its ``HTTPException``.
"""

from __future__ import annotations

from typing import Any

from .models import IS_COMPONENTS_V2, walk_components

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
V2_COMPONENTS_MAX = 40
V2_TEXT_TOTAL_MAX = 4000
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000

Errors = dict[str, Any]


def _err(code: str, message: str) -> Errors:
    return {"_errors": [{"code": code, "message": message}]}


def _put(tree: Errors, path: list[str | int], leaf: Errors) -> None:
    node = tree
    for key in path:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).extend(leaf["_errors"])


def _max_len(tree: Errors, path: list[str | int], value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        _put(tree, path, _err("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def _embed_chars(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def _check_embeds(tree: Errors, embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > EMBEDS_MAX:
        _put(tree, ["embeds"], _err("BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length."))
    for i, embed in enumerate(embeds):
        _max_len(tree, ["embeds", i, "title"], embed.get("title"), EMBED_TITLE_MAX)
        _max_len(tree, ["embeds", i, "description"], embed.get("description"), EMBED_DESCRIPTION_MAX)
        _max_len(tree, ["embeds", i, "footer", "text"], (embed.get("footer") or {}).get("text"), EMBED_FOOTER_MAX)
        _max_len(tree, ["embeds", i, "author", "name"], (embed.get("author") or {}).get("name"), EMBED_AUTHOR_MAX)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            _put(tree, ["embeds", i, "fields"],
                 _err("BASE_TYPE_MAX_LENGTH", f"Must be {EMBED_FIELDS_MAX} or fewer in length."))
        for j, f in enumerate(fields):
            _max_len(tree, ["embeds", i, "fields", j, "name"], f.get("name"), EMBED_FIELD_NAME_MAX)
            _max_len(tree, ["embeds", i, "fields", j, "value"], f.get("value"), EMBED_FIELD_VALUE_MAX)
    if sum(_embed_chars(e) for e in embeds) > EMBED_TOTAL_MAX:
        _put(tree, ["embeds"], _err("MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"))


def _check_leaf(tree: Errors, path: list[str | int], comp: dict[str, Any], seen: set[str]) -> None:
    """Checks one interactive component (button or select) at ``path``."""
    ctype = comp.get("type")
    custom_id = comp.get("custom_id")
    if ctype == 2 and comp.get("style") in (5, 6):
        pass  # link and premium buttons carry no custom_id
    elif not custom_id:
        _put(tree, [*path, "custom_id"], _err("BASE_TYPE_REQUIRED", "This field is required"))
    if isinstance(custom_id, str):
        _max_len(tree, [*path, "custom_id"], custom_id, CUSTOM_ID_MAX)
        if custom_id in seen:
            _put(tree, [*path, "custom_id"],
                 _err("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"))
        seen.add(custom_id)
    if ctype == 2:
        _max_len(tree, [*path, "label"], comp.get("label"), LABEL_MAX)
        if comp.get("style") == 5 and not comp.get("url"):
            _put(tree, [*path, "url"], _err("BASE_TYPE_REQUIRED", "This field is required"))
    else:
        _max_len(tree, [*path, "placeholder"], comp.get("placeholder"), PLACEHOLDER_MAX)
        options = comp.get("options") or []
        if ctype == 3 and not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            _put(tree, [*path, "options"],
                 _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {SELECT_OPTIONS_MAX} in length."))
        for k, opt in enumerate(options):
            for key in ("label", "value", "description"):
                _max_len(tree, [*path, "options", k, key], opt.get(key), SELECT_OPTION_TEXT_MAX)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= lo <= SELECT_OPTIONS_MAX:
            _put(tree, [*path, "min_values"], _err("NUMBER_TYPE_MAX", f"int value should be <= {SELECT_OPTIONS_MAX}."))
        if not 1 <= hi <= SELECT_OPTIONS_MAX:
            _put(tree, [*path, "max_values"], _err("NUMBER_TYPE_MAX", f"int value should be <= {SELECT_OPTIONS_MAX}."))
        if ctype == 3 and options and hi > len(options):
            _put(tree, [*path, "max_values"],
                 _err("BASE_TYPE_MAX", f"max_values must be <= the number of options ({len(options)})"))


def _check_components_v1(tree: Errors, components: list[dict[str, Any]]) -> None:
    if len(components) > ACTION_ROWS_MAX:
        _put(tree, ["components"], _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {ACTION_ROWS_MAX} in length."))
    seen: set[str] = set()
    for i, row in enumerate(components):
        if row.get("type") != 1:
            _put(tree, ["components", i, "type"],
                 _err("UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,)."))
            continue
        children = row.get("components") or []
        if not 1 <= len(children) <= ROW_BUTTONS_MAX:
            _put(tree, ["components", i, "components"],
                 _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {ROW_BUTTONS_MAX} in length."))
        has_select = any(c.get("type") != 2 for c in children)
        if has_select and len(children) > 1:
            _put(tree, ["components", i, "components"],
                 _err("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width"))
        for j, comp in enumerate(children):
            _check_leaf(tree, ["components", i, "components", j], comp, seen)


V2_TOP_TYPES = frozenset({1, 9, 10, 12, 13, 14, 17})
"""Component types Discord accepts at the top of a Components V2 message."""
V2_CONTAINER_TYPES = frozenset({1, 9, 10, 12, 13, 14})
"""Component types a Container (17) may hold."""
INTERACTIVE_TYPES = frozenset({2, 3, 5, 6, 7, 8})
"""Buttons and the five kinds of select menu."""
SECTION_TEXTS_MAX = 3
GALLERY_ITEMS_MAX = 10
ACCENT_MAX = 0xFFFFFF


def _type_error(tree: Errors, path: list[str | int], allowed: frozenset[int]) -> None:
    choices = ", ".join(str(t) for t in sorted(allowed))
    _put(tree, [*path, "type"], _err("UNION_TYPE_CHOICES", f"Value of field \"type\" must be one of ({choices},)."))


def _check_media(tree: Errors, path: list[str | int], media: Any, files: set[str] | None,
                 *, attachment_only: bool = False) -> None:
    """Checks an unfurled media item ``{"url": ...}``: ``attachment://name`` must name an uploaded file."""
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        _put(tree, [*path, "url"], _err("BASE_TYPE_REQUIRED", "This field is required"))
        return
    if url.startswith("attachment://"):
        if files is not None and url[len("attachment://"):] not in files:
            _put(tree, [*path, "url"], _err("UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                            f"Attachment {url[len('attachment://'):]!r} was not uploaded"))
    elif attachment_only or not url.startswith(("http://", "https://")):
        _put(tree, [*path, "url"], _err("URL_TYPE_INVALID_SCHEME", "Scheme must be one of ('attachment',)"
                                        if attachment_only else "Not a well formed URL."))


def _check_row(tree: Errors, path: list[str | int], row: dict[str, Any], seen: set[str]) -> None:
    children = row.get("components") or []
    if not 1 <= len(children) <= ROW_BUTTONS_MAX:
        _put(tree, [*path, "components"],
             _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {ROW_BUTTONS_MAX} in length."))
    if any(c.get("type") != 2 for c in children) and len(children) > 1:
        _put(tree, [*path, "components"],
             _err("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width"))
    for j, comp in enumerate(children):
        if comp.get("type") not in INTERACTIVE_TYPES:
            _type_error(tree, [*path, "components", j], INTERACTIVE_TYPES)
            continue
        _check_leaf(tree, [*path, "components", j], comp, seen)


def _check_v2_node(tree: Errors, path: list[str | int], comp: dict[str, Any], allowed: frozenset[int],
                   seen: set[str], files: set[str] | None) -> None:
    """Checks one layout component at ``path`` and everything inside it."""
    ctype = comp.get("type")
    if ctype not in allowed:
        _type_error(tree, path, allowed)
        return
    if ctype == 1:
        _check_row(tree, path, comp, seen)
    elif ctype == 10:
        if not isinstance(comp.get("content"), str) or not comp["content"]:
            _put(tree, [*path, "content"], _err("BASE_TYPE_REQUIRED", "This field is required"))
    elif ctype == 9:
        texts = comp.get("components") or []
        if not 1 <= len(texts) <= SECTION_TEXTS_MAX:
            _put(tree, [*path, "components"],
                 _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {SECTION_TEXTS_MAX} in length."))
        for j, text in enumerate(texts):
            _check_v2_node(tree, [*path, "components", j], text, frozenset({10}), seen, files)
        accessory = comp.get("accessory")
        if not isinstance(accessory, dict):
            _put(tree, [*path, "accessory"], _err("BASE_TYPE_REQUIRED", "This field is required"))
        elif accessory.get("type") == 2:
            _check_leaf(tree, [*path, "accessory"], accessory, seen)
        else:
            _check_v2_node(tree, [*path, "accessory"], accessory, frozenset({2, 11}), seen, files)
    elif ctype == 11:
        _check_media(tree, [*path, "media"], comp.get("media"), files)
        _max_len(tree, [*path, "description"], comp.get("description"), 1024)
    elif ctype == 12:
        items = comp.get("items") or []
        if not 1 <= len(items) <= GALLERY_ITEMS_MAX:
            _put(tree, [*path, "items"],
                 _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {GALLERY_ITEMS_MAX} in length."))
        for j, item in enumerate(items):
            _check_media(tree, [*path, "items", j, "media"], item.get("media"), files)
            _max_len(tree, [*path, "items", j, "description"], item.get("description"), 1024)
    elif ctype == 13:
        _check_media(tree, [*path, "file"], comp.get("file"), files, attachment_only=True)
    elif ctype == 14:
        if comp.get("spacing", 1) not in (1, 2):
            _put(tree, [*path, "spacing"], _err("BASE_TYPE_CHOICES", "Value must be one of (1, 2)."))
        if not isinstance(comp.get("divider", True), bool):
            _put(tree, [*path, "divider"], _err("BASE_TYPE_BOOLEAN", "Must be either true or false."))
    elif ctype == 17:
        accent = comp.get("accent_color")
        if accent is not None and (not isinstance(accent, int) or isinstance(accent, bool)
                                   or not 0 <= accent <= ACCENT_MAX):
            _put(tree, [*path, "accent_color"], _err("NUMBER_TYPE_MAX", f"int value should be <= {ACCENT_MAX}."))
        children = comp.get("components") or []
        if not children:
            _put(tree, [*path, "components"], _err("BASE_TYPE_REQUIRED", "This field is required"))
        for j, child in enumerate(children):
            _check_v2_node(tree, [*path, "components", j], child, V2_CONTAINER_TYPES, seen, files)


def _check_components_v2(tree: Errors, components: list[dict[str, Any]], files: set[str] | None) -> None:
    """Components V2: the types by place, 40 components in all (nested ones count), 4,000 characters of
    TextDisplay text, rows of <= 5 buttons or 1 select, custom ids unique, ``attachment://`` names uploaded.
    """
    every = list(walk_components(components))
    if len(every) > V2_COMPONENTS_MAX:
        _put(tree, ["components"],
             _err("BASE_TYPE_MAX_LENGTH", f"Must be {V2_COMPONENTS_MAX} or fewer in total components."))
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
    if text > V2_TEXT_TOTAL_MAX:
        _put(tree, ["components"],
             _err("BASE_TYPE_MAX_LENGTH", f"Text displays must total {V2_TEXT_TOTAL_MAX} or fewer characters."))
    seen: set[str] = set()
    for n, comp in enumerate(components):
        _check_v2_node(tree, ["components", n], comp, V2_TOP_TYPES, seen, files)


def validate_message(payload: dict[str, Any], *, partial: bool = False, flags: int = 0,
                     files: set[str] | None = None) -> Errors | None:
    """Checks a message create/edit body against Discord's limits.

    ``partial`` (edits) skips the "cannot be empty" rule. ``flags`` are the message's flags when
    the body carries none (an edit of a Components V2 message). ``files`` are the file names an
    ``attachment://name`` media URL may point at (the body's uploads plus, for an edit, the files
    the message keeps; ``None`` skips that check). With the IS_COMPONENTS_V2 flag (1 << 15) the
    body may carry no ``content`` or ``embeds`` and its components follow the V2 rules
    (:func:`_check_components_v2`). Returns ``None`` when accepted, else the ``errors`` tree of a
    50035 answer.
    """
    tree: Errors = {}
    content = payload.get("content")
    if isinstance(content, str):
        _max_len(tree, ["content"], content, CONTENT_MAX)
    embeds = payload.get("embeds") or []
    if payload.get("embed"):
        embeds = [*embeds, payload["embed"]]
    _check_embeds(tree, embeds)
    components = payload.get("components") or []
    flags = int(payload.get("flags") or 0) | flags
    if flags & IS_COMPONENTS_V2:
        if content or embeds:
            _put(tree, ["content"], _err("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                         "The 'content' and 'embeds' fields cannot be used with components v2"))
        _check_components_v2(tree, components, files)
    else:
        _check_components_v1(tree, components)
    return tree or None


def is_empty_message(payload: dict[str, Any]) -> bool:
    """True when a create body has no content, embeds, components, stickers, poll or files."""
    return not any(payload.get(k) for k in ("content", "embeds", "embed", "components", "sticker_ids", "poll",
                                            "attachments", "_files"))


def validate_modal(data: dict[str, Any]) -> Errors | None:
    """Checks a type-9 (modal) callback's ``data``; ``None`` when accepted."""
    tree: Errors = {}
    _max_len(tree, ["data", "title"], data.get("title"), MODAL_TITLE_MAX)
    custom_id = data.get("custom_id")
    if not custom_id:
        _put(tree, ["data", "custom_id"], _err("BASE_TYPE_REQUIRED", "This field is required"))
    _max_len(tree, ["data", "custom_id"], custom_id, CUSTOM_ID_MAX)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        _put(tree, ["data", "components"],
             _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length."))
    seen: set[str] = set()
    for n, comp in enumerate(walk_components(components)):
        if comp.get("type") == 4:
            cid = comp.get("custom_id") or ""
            _max_len(tree, ["data", "components", n, "custom_id"], cid, CUSTOM_ID_MAX)
            if cid in seen:
                _put(tree, ["data", "components", n, "custom_id"],
                     _err("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"))
            seen.add(cid)
            _max_len(tree, ["data", "components", n, "label"], comp.get("label"), TEXT_INPUT_LABEL_MAX)
            _max_len(tree, ["data", "components", n, "value"], comp.get("value"), TEXT_INPUT_VALUE_MAX)
    return tree or None
