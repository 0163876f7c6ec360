"""Faithful editing of Daycare's Markdown files: frontmatter documents, typed views, atomic conflict-aware saves.

Qt-free: the GUI's editors wrap these models; the ``daycare-gui edit`` command uses them directly.
"""

from .atomic import ConflictError, Loaded, load_for_edit, save_atomic, sha256_of
from .document import FrontmatterDocument, FrontmatterProblem
from .errors import DocumentError, InvalidValue
from .memory_doc import MemoryEntityDoc, MemorySection
from .permissions_doc import PermissionsDoc, rule_warning, validate_rule
from .schedule import describe_schedule, next_runs, validate_schedule
from .views import AppManifestDoc, CronTaskDoc, DocView, HeartbeatDoc, SkillDoc

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
    "save_atomic",
    "sha256_of",
]
