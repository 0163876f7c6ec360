"""Faithful editing of Daycare's Markdown files: frontmatter documents, typed views, atomic conflict-aware saves.

Qt-free: the GUI's editors wrap these models; the ``daycare-gui edit`` command uses them directly.
"""

# Names are resolved on first use (PEP 562) rather than imported here: a save through ``.atomic`` must
# not load croniter, ruamel.yaml and every document view with it (the store kinds import it to probe).
from daycare_gui.stores.common.lazy_exports import lazy_exports

_EXPORTS = {
    "ConflictError": "atomic",
    "Loaded": "atomic",
    "load_for_edit": "atomic",
    "ReadOnlyError": "atomic",
    "OutsideStoreError": "atomic",
    "refuse_read_only": "atomic",
    "save_atomic": "atomic",
    "sha256_of": "atomic",
    "FrontmatterDocument": "document",
    "FrontmatterProblem": "document",
    "DocumentError": "errors",
    "InvalidValue": "errors",
    "document_kind": "forms",
    "form_for_path": "forms",
    "MemoryEntityDoc": "memory_doc",
    "MemorySection": "memory_doc",
    "PermissionsDoc": "permissions_doc",
    "rule_warning": "permissions_doc",
    "validate_rule": "permissions_doc",
    "describe_schedule": "schedule",
    "next_runs": "schedule",
    "validate_schedule": "schedule",
    "AppManifestDoc": "views",
    "CronTaskDoc": "views",
    "DocView": "views",
    "HeartbeatDoc": "views",
    "SkillDoc": "views",
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "AppManifestDoc",
    "ConflictError",
    "CronTaskDoc",
    "DocView",
    "HeartbeatDoc",
    "MemoryEntityDoc",
    "MemorySection",
    "PermissionsDoc",
    "SkillDoc",
    "describe_schedule",
    "document_kind",
    "form_for_path",
    "next_runs",
    "rule_warning",
    "validate_rule",
    "validate_schedule",
    "DocumentError",
    "FrontmatterDocument",
    "FrontmatterProblem",
    "InvalidValue",
    "Loaded",
    "load_for_edit",
    "ReadOnlyError",
    "OutsideStoreError",
    "refuse_read_only",
    "save_atomic",
    "sha256_of",
]
