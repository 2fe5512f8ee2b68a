"""Hypothesis strategies for any protobuf message, built from its descriptor.

Nothing here knows kassen's messages: every field gets a strategy from its type (scalars with
their edge values, strings and bytes now and then far beyond the referee's message limit,
enums with values no one declared, nested messages to a bounded depth, repeated fields and
maps with bounded sizes, at most one member of each oneof). A scenario steers a field towards
meaningful values with ``hints`` (by the field's full name): the hint is drawn seven times in
eight, the generic strategy the eighth, so that whole valid requests appear, and garbage too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

F = FieldDescriptor
Hints = Mapping[str, st.SearchStrategy[Any]]

#: Nested messages deeper than this are left unset (GnomevilleValue holds itself).
MAX_DEPTH = 3
#: Elements of a repeated field or entries of a map.
MAX_REPEATED = 4
#: Ordinary strings and bytes; "huge" ones are a repeated character, up to HUGE_SIZE.
MAX_TEXT = 40
HUGE_SIZE = 70_000

_INT_RANGES: dict[int, tuple[int, int]] = {
    F.TYPE_INT32: (-(2**31), 2**31 - 1),
    F.TYPE_SINT32: (-(2**31), 2**31 - 1),
    F.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    F.TYPE_INT64: (-(2**63), 2**63 - 1),
    F.TYPE_SINT64: (-(2**63), 2**63 - 1),
    F.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    F.TYPE_UINT32: (0, 2**32 - 1),
    F.TYPE_FIXED32: (0, 2**32 - 1),
    F.TYPE_UINT64: (0, 2**64 - 1),
    F.TYPE_FIXED64: (0, 2**64 - 1),
}


def integers(low: int, high: int) -> st.SearchStrategy[int]:
    """Small values, the edges of the type and of its signed half, and anything between."""
    candidates = (low, low + 1, -1, 0, 1, 2, 2**31 - 1, 2**31, 2**32 - 1, 2**63 - 1, high)
    edges = sorted({v for v in candidates if low <= v <= high})
    return st.one_of(
        st.integers(max(low, 0), min(high, 20)),
        st.sampled_from(edges),
        st.integers(low, high),
    )


def huge_text() -> st.SearchStrategy[str]:
    """One character repeated up to HUGE_SIZE times: cheap to draw, beyond message limits."""
    return st.builds(
        lambda c, n: c * n, st.characters(codec="utf-8"), st.integers(1_000, HUGE_SIZE)
    )


def rarely(usual: st.SearchStrategy[Any], rare: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``rare`` one time in eight: a huge value in every string field would make nearly every
    message too large to reach the referee's code."""
    return st.integers(0, 7).flatmap(lambda k: rare if k == 0 else usual)


def texts() -> st.SearchStrategy[str]:
    return rarely(st.text(max_size=MAX_TEXT), huge_text())


def binaries() -> st.SearchStrategy[bytes]:
    repeated = st.builds(
        lambda b, n: b * n, st.binary(min_size=1, max_size=4), st.integers(1, HUGE_SIZE // 4)
    )
    return rarely(st.binary(max_size=MAX_TEXT), repeated)


def scalar(field: FieldDescriptor) -> st.SearchStrategy[Any]:
    """A value of a scalar or enum field."""
    kind = field.type
    if kind in _INT_RANGES:
        return integers(*_INT_RANGES[kind])
    if kind == F.TYPE_BOOL:
        return st.booleans()
    if kind in (F.TYPE_FLOAT, F.TYPE_DOUBLE):
        return st.floats(width=32 if kind == F.TYPE_FLOAT else 64)
    if kind == F.TYPE_STRING:
        return texts()
    if kind == F.TYPE_BYTES:
        return binaries()
    if kind == F.TYPE_ENUM:  # proto3 enums are open: undeclared numbers travel too
        assert field.enum_type is not None
        declared = [v.number for v in field.enum_type.values]
        return st.one_of(st.sampled_from(declared), integers(-(2**31), 2**31 - 1))
    raise TypeError(f"no strategy for field type {kind} ({field.full_name})")


def messages(
    descriptor: Descriptor, hints: Hints | None = None, depth: int = 0
) -> st.SearchStrategy[Message]:
    """Messages of ``descriptor``'s type: any subset of its fields set, one oneof member."""
    hints = hints or {}
    cls = message_factory.GetMessageClass(descriptor)
    plain: dict[str, st.SearchStrategy[Any]] = {}
    oneofs: list[st.SearchStrategy[tuple[str, Any] | None]] = []
    for oneof in descriptor.oneofs:
        if _synthetic(oneof.fields, oneof.name):
            continue
        members = [
            st.tuples(st.just(f.name), strategy)
            for f in oneof.fields
            if (strategy := _field(f, hints, depth)) is not None
        ]
        oneofs.append(st.one_of(st.none(), *members))
    for field in descriptor.fields:
        owner = field.containing_oneof
        if owner is not None and not _synthetic(owner.fields, owner.name):
            continue
        strategy = _field(field, hints, depth)
        if strategy is not None:
            plain[field.name] = strategy

    def build(values: dict[str, Any], chosen: list[tuple[str, Any] | None]) -> Message:
        message = cls()
        for name, value in [*values.items(), *(c for c in chosen if c is not None)]:
            _set(message, descriptor.fields_by_name[name], value)
        return message

    return st.builds(build, st.fixed_dictionaries({}, optional=plain), st.tuples(*oneofs).map(list))


def _synthetic(fields: Any, name: str) -> bool:
    """A proto3 ``optional`` field's hidden oneof, not a real choice between fields."""
    return len(fields) == 1 and name == "_" + fields[0].name


def _entry(field: FieldDescriptor) -> Descriptor | None:
    """The entry type of a map field; None for any other field."""
    kind = field.message_type
    if field.type == F.TYPE_MESSAGE and kind is not None and kind.GetOptions().map_entry:
        return kind
    return None


def _field(field: FieldDescriptor, hints: Hints, depth: int) -> st.SearchStrategy[Any] | None:
    """The strategy for one field's value (a list for repeated, a dict for maps); None for a
    message field below the depth limit."""
    entry = _entry(field)
    if entry is not None:
        key = entry.fields_by_name["key"]
        value = entry.fields_by_name["value"]
        value_strategy = _single(value, hints, depth + 1)
        if value_strategy is None:
            return None
        generic_map = st.dictionaries(
            _hinted(key, hints, scalar(key)), value_strategy, max_size=MAX_REPEATED
        )
        return _hinted(field, hints, generic_map)
    single = _single(field, hints, depth)
    if single is None:
        return None
    if field.is_repeated:
        return _hinted(field, hints, st.lists(single, max_size=MAX_REPEATED))
    return single


def _single(field: FieldDescriptor, hints: Hints, depth: int) -> st.SearchStrategy[Any] | None:
    if field.type == F.TYPE_MESSAGE:
        if depth >= MAX_DEPTH or field.message_type is None:
            return None
        generic = messages(field.message_type, hints, depth + 1)
    else:
        generic = scalar(field)
    if field.is_repeated:  # a repeated field's hint is for the whole list (see _field)
        return generic
    return _hinted(field, hints, generic)


def _hinted(
    field: FieldDescriptor, hints: Hints, generic: st.SearchStrategy[Any]
) -> st.SearchStrategy[Any]:
    hint = hints.get(field.full_name)
    return generic if hint is None else rarely(hint, generic)


def _set(message: Message, field: FieldDescriptor, value: Any) -> None:
    target = getattr(message, field.name)
    entry = _entry(field)
    if entry is not None:
        value_field = entry.fields_by_name["value"]
        for key, item in value.items():
            if value_field.type == F.TYPE_MESSAGE:
                target[key].CopyFrom(item)
            else:
                target[key] = item
    elif field.is_repeated:
        if field.type == F.TYPE_MESSAGE:
            for item in value:
                target.add().CopyFrom(item)
        else:
            target.extend(value)
    elif field.type == F.TYPE_MESSAGE:
        target.CopyFrom(value)
    else:
        setattr(message, field.name, value)


def mutated(serialized: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    """Valid encodings damaged: truncated, a byte flipped, garbage spliced in."""

    def damage(data: bytes, at: int, kind: int, junk: bytes) -> bytes:
        cut = at % (len(data) + 1)
        if kind == 0:
            return data[:cut]
        if kind == 1 and data:
            i = at % len(data)
            return data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :]
        return data[:cut] + junk + data[cut:]

    return st.builds(
        damage,
        serialized,
        st.integers(0, 2**16),
        st.integers(0, 2),
        st.binary(min_size=1, max_size=16),
    )
