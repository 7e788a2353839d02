"""BattleScribe's XML roster (.ros, and the member of a .rosz), old (1.15) and new (2.x, New Recruit) layouts, read
with defusedxml: a DTD, an entity or an external reference is refused, never expanded or fetched."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
from defusedxml.ElementTree import iterparse  # type: ignore[import-untyped]

from bot.list_files.errors import MAX_DEPTH, Budget, ListFileError, shown, whole_number
from bot.list_files.tree import Cost, Force, ListFile, Profile, Selection

_CUT_OFF = {3, 5, 6}  # expat: no element found, unclosed token, partial character: the data ended mid-document


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _parse(data: bytes) -> ET.Element:
    """The document's root, refused past MAX_DEPTH elements deep or on anything but plain, well-formed XML."""
    open_tags: list[str] = []
    root: ET.Element | None = None
    try:
        for event, element in iterparse(io.BytesIO(data), events=("start", "end"), forbid_dtd=True):
            if event == "start":
                root = element if root is None else root
                open_tags.append(_local(element.tag))
                if len(open_tags) > MAX_DEPTH:
                    raise ListFileError(
                        f"The XML nests elements more than {MAX_DEPTH} deep; a real roster nests about 16. "
                        "Export it again from the app."
                    )
            else:
                open_tags.pop()
    except ListFileError:
        raise
    except DefusedXmlException:
        raise ListFileError(
            "The XML declares a DTD or entities, which a roster never does; they are not read. "
            "Export it again from the app."
        ) from None
    except ET.ParseError as error:
        line, column = error.position
        if error.code in _CUT_OFF and open_tags:
            raise ListFileError(f"Line {line}: the XML is cut off (unclosed {shown(open_tags[-1])}).") from None
        reason = str(error).split(":", 1)[0]
        raise ListFileError(f"Line {line}, column {column}: the XML is not well-formed ({reason}).") from None
    except (ValueError, LookupError) as error:  # an encoding the declaration names but Python cannot decode
        raise ListFileError(f"The XML cannot be decoded ({shown(error)}); save it as UTF-8.") from None
    if root is None:
        raise ListFileError("The XML holds no element; a BattleScribe roster starts with <roster>.")
    return root


def _children(element: ET.Element, *path: str) -> Iterator[ET.Element]:
    """The elements at ``path`` under ``element`` (local names, any namespace), in order."""
    if not path:
        yield element
        return
    for child in element:
        if _local(child.tag) == path[0]:
            yield from _children(child, *path[1:])


def _profile(element: ET.Element) -> Profile:
    characteristics = tuple(
        (item.get("name", ""), item.get("value", "") if "value" in item.attrib else (item.text or ""))
        for item in _children(element, "characteristics", "characteristic")
    )
    type_name = element.get("typeName", element.get("type", ""))
    return Profile(element.get("name", ""), type_name.strip(), characteristics)


def _selection(element: ET.Element, budget: Budget, depth: int, category: str = "") -> Selection:
    name = element.get("name", "")
    type_ = element.get("type", "")
    number = whole_number(element.get("number", "1"), f"Selection {shown(name)}")
    budget.count(type_, number, depth)
    costs = tuple(Cost(cost.get("name", ""), cost.get("value", "")) for cost in _children(element, "costs", "cost"))
    if "points" in element.attrib:  # BattleScribe 1.15 writes the cost as an attribute
        costs = (Cost("pts", element.get("points", "")), *costs)
    categories = tuple(item.get("name", "") for item in _children(element, "categories", "category"))
    return Selection(
        name=name,
        type=type_,
        number=number,
        profiles=tuple(_profile(item) for item in _children(element, "profiles", "profile")),
        rules=tuple(item.get("name", "") for item in _children(element, "rules", "rule")),
        categories=categories or ((category,) if category else ()),
        costs=costs,
        selections=tuple(_selection(item, budget, depth + 1) for item in _children(element, "selections", "selection")),
    )


def _force(element: ET.Element, budget: Budget) -> Force:
    selections = [_selection(item, budget, 1) for item in _children(element, "selections", "selection")]
    for category in _children(element, "categories", "category"):  # BattleScribe 1.15: units under their category
        name = category.get("name", "")
        selections += [_selection(item, budget, 1, name) for item in _children(category, "selections", "selection")]
    name = element.get("name") or element.get("forceTypeName") or ""
    return Force(name.strip(), element.get("catalogueName", ""), tuple(selections))


def read_xml(data: bytes, source_format: str) -> ListFile:
    """The list in a BattleScribe XML roster."""
    root = _parse(data)
    if _local(root.tag) != "roster":
        raise ListFileError(
            f"The XML is a <{_local(root.tag)[:40]}>, not a <roster>: export the list (a .ros or .rosz), "
            "not the game's data."
        )
    budget = Budget()
    return ListFile(
        name=root.get("name", ""),
        game_system_id=root.get("gameSystemId", ""),
        game_system_name=root.get("gameSystemName", ""),
        game_system_revision=root.get("gameSystemRevision", ""),
        source_format=source_format,
        battlescribe_version=root.get("battleScribeVersion", ""),
        generated_by=root.get("generatedBy", ""),
        forces=tuple(_force(item, budget) for item in _children(root, "forces", "force")),
    )
