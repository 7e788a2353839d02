"""Army list files made in code: a large list in BattleScribe 2.03's layout (the bench's 200 units) and the shapes
the hostile-input tests need."""

from __future__ import annotations

import io
import zipfile
from xml.sax.saxutils import quoteattr

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
UNIT_STATS = (("WS", "4"), ("BS", "4"), ("S", "4"), ("T", "4"), ("W", "1"), ("I", "4"), ("A", "1"), ("Ld", "8"))
WEAPON_STATS = (("Range", '24"'), ("S", "4"), ("AP", "5"), ("Type", "Rapid Fire"))


def roster(selections: str, name: str = "Generated", system: str = "Test System") -> str:
    """A roster document around ``selections`` (the XML of a force's selections)."""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<roster id="r" name={quoteattr(name)} battleScribeVersion="2.03" gameSystemId="g"'
        f' gameSystemName={quoteattr(system)} gameSystemRevision="1" xmlns="{NAMESPACE}">\n'
        '<forces><force id="f" name="Force" catalogueName="Catalogue"><selections>\n'
        f"{selections}</selections></force></forces></roster>\n"
    )


def selection(name: str, type_: str = "upgrade", number: int = 1, inner: str = "") -> str:
    return f'<selection id="s" name={quoteattr(name)} number="{number}" type="{type_}">{inner}</selection>\n'


def profile(name: str, type_name: str, stats: tuple[tuple[str, str], ...]) -> str:
    characteristics = "".join(
        f'<characteristic name="{key}" typeId="t">{value}</characteristic>' for key, value in stats
    )
    return (
        f'<profiles><profile id="p" name={quoteattr(name)} hidden="false" typeId="t" typeName="{type_name}">'
        f"<characteristics>{characteristics}</characteristics></profile></profiles>"
    )


def unit(index: int) -> str:
    """One tactical-squad-shaped unit: a sergeant with two weapons, nine models with one, rules, categories, costs."""
    weapon = selection("Boltgun", inner=profile("Boltgun", "Weapon", WEAPON_STATS))
    sergeant = selection(
        "Sergeant",
        "model",
        inner=profile("Sergeant", "Unit", UNIT_STATS)
        + "<selections>"
        + weapon
        + selection("Power Fist")
        + "</selections>",
    )
    marines = selection(
        "Marine", "model", 9, inner=profile("Marine", "Unit", UNIT_STATS) + "<selections>" + weapon + "</selections>"
    )
    extras = (
        '<rules><rule id="r" name="And They Shall Know No Fear" hidden="false"><description>Text.</description></rule>'
        '</rules><categories><category id="c" name="Troops" entryId="c" primary="true"/></categories>'
        '<costs><cost name="pts" typeId="points" value="150.0"/></costs>'
    )
    return selection(
        f"Tactical Squad {index}", "unit", inner=extras + "<selections>" + sergeant + marines + "</selections>"
    )


def large_roster(units: int = 200) -> bytes:
    return roster("".join(unit(index) for index in range(units)), name=f"{units} units").encode()


def rosz(*members: tuple[str, bytes]) -> bytes:
    """A zip of ``members`` (name, content), deflated, as BattleScribe writes a .rosz."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members:
            archive.writestr(name, content)
    return buffer.getvalue()
