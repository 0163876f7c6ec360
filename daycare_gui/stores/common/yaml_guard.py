"""The YAML depth guard for every store kind: the same check every reader uses (one copy, in files.yaml_guard)."""

from daycare_gui.stores.common.files.yaml_guard import LIMIT, too_deep

__all__ = ["LIMIT", "too_deep"]
