"""Faithful editing of Daycare's Markdown files: frontmatter documents, typed views, atomic conflict-aware saves.

Qt-free: the GUI's editors wrap these models; the ``daycare-gui edit`` command uses them directly. The
kind-neutral parts (atomic saves, the frontmatter document, errors, schedules) live in
:mod:`daycare_gui.stores.common.edit`; this package holds Daycare's own document views.
"""

# Names are resolved on first use (PEP 562) rather than imported here: a save through ``common.edit.atomic`` must
# not load croniter, ruamel.yaml and every document view with it (the store kinds import it to probe).
from daycare_gui.stores.common.lazy_exports import lazy_exports

_EXPORTS = {
    "MemoryEntityDoc": "memory_doc",
    "MemorySection": "memory_doc",
    "PermissionsDoc": "permissions_doc",
    "rule_warning": "permissions_doc",
    "validate_rule": "permissions_doc",
    "AppManifestDoc": "views",
    "CronTaskDoc": "views",
    "DocView": "views",
    "HeartbeatDoc": "views",
    "SkillDoc": "views",
    "document_kind": "forms",
    "form_for_path": "forms",
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "AppManifestDoc",
    "CronTaskDoc",
    "DocView",
    "HeartbeatDoc",
    "MemoryEntityDoc",
    "MemorySection",
    "PermissionsDoc",
    "SkillDoc",
    "document_kind",
    "form_for_path",
    "rule_warning",
    "validate_rule",
]
