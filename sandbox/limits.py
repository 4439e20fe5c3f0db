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


def _check_components_v2(tree: Errors, components: list[dict[str, Any]]) -> None:
    every = list(walk_components(components))
    if len(every) > V2_COMPONENTS_MAX:
        _put(tree, ["components"],
             _err("BASE_TYPE_MAX_LENGTH", f"Must be {V2_COMPONENTS_MAX} or fewer in total components."))
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
    if text > V2_TEXT_TOTAL_MAX:
        _put(tree, ["components"],
             _err("BASE_TYPE_MAX_LENGTH", f"Text displays must total {V2_TEXT_TOTAL_MAX} or fewer characters."))
    seen: set[str] = set()
    for n, comp in enumerate(every):
        if comp.get("type") in (2, 3, 5, 6, 7, 8):
            _check_leaf(tree, ["components", n], comp, seen)
        if comp.get("type") == 1 and len(comp.get("components") or []) > ROW_BUTTONS_MAX:
            _put(tree, ["components", n, "components"],
                 _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {ROW_BUTTONS_MAX} in length."))


def validate_message(payload: dict[str, Any], *, partial: bool = False, flags: int = 0) -> Errors | None:
    """Checks a message create/edit body against Discord's limits.

    ``partial`` (edits) skips the "cannot be empty" rule. ``flags`` are the message's flags when
    the body carries none (an edit of a Components V2 message). Returns ``None`` when accepted,
    else the ``errors`` tree of a 50035 answer.
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
        _check_components_v2(tree, components)
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
