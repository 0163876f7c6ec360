"""``settings.json`` and ``auth.json`` as documents of the data directory: listed, never read into the window
(their outlines and fields come from doc_fields, which loads the editing code only when asked)."""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.daycare.datadir.skills import SkillDoc
from daycare_gui.stores.records import DocRef

SETTINGS, AUTH, MEMORY = "settings", "auth", "memory"
AUTH_REASON = "credentials: only which fields are set is shown, never their values"
SETTINGS_REASON = "edited one value at a time (select a key, then Edit value…): its text is never shown"


def config_docs(config_dir: Path, settings_path: Path, auth_path: Path) -> list[SkillDoc]:
    out = []
    if settings_path.is_file():
        out.append(SkillDoc(DocRef("config:settings.json", "settings.json", settings_path, "Settings",
                                   editable=True, frontmatter=False, readonly_reason=SETTINGS_REASON,
                                   source=SETTINGS, format="json", secret=True), SETTINGS, settings_path.parent))
    if auth_path.is_file():
        out.append(SkillDoc(DocRef("config:auth.json", "auth.json", auth_path, "Settings", editable=False,
                                   frontmatter=False, readonly_reason=AUTH_REASON, source=AUTH, format="json",
                                   secret=True), AUTH, auth_path.parent))
    return out
