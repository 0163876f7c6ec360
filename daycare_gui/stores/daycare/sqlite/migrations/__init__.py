"""Daycare's own SQLite migration pipeline (the 26 migrations of ex3ndr/daycare@808af509).

Public API: :func:`plan_upgrade` (dry run) and :func:`run_upgrade` (safe upgrade) in :mod:`.upgrade`;
:func:`.runner.run_migrations` is the bare Daycare-equivalent runner.
"""

from daycare_gui.stores.daycare.sqlite.migrations.upgrade import (
    UpgradePlan,
    UpgradeResult,
    plan_upgrade,
    run_upgrade,
)

__all__ = ["UpgradePlan", "UpgradeResult", "plan_upgrade", "run_upgrade"]
