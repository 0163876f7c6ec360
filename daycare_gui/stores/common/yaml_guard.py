"""The YAML depth guard for every store kind: the same check Daycare's readers use (one copy, in the core)."""

from daycare_gui.stores.common.files.yaml_guard import LIMIT, too_deep

__all__ = ["LIMIT", "too_deep"]
