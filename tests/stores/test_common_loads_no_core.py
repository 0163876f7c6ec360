"""The store-kind contract and the shared helpers are kind-neutral: loading them never loads Daycare's core,
and Daycare's old module names are the very same modules as their new homes."""

import pkgutil
import subprocess
import sys

import daycare_gui.stores.common as common


def test_loading_the_contract_and_every_shared_helper_loads_no_daycare_core():
    names = ["daycare_gui.stores.api", "daycare_gui.stores.records"]
    names += [m.name for m in pkgutil.walk_packages(common.__path__, prefix="daycare_gui.stores.common.")]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('daycare_gui.stores.daycare'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"the shared code loaded Daycare's core: {out.stdout.strip()}"
    assert "daycare_gui.stores.common.files.read" in names and "daycare_gui.stores.common.edit.atomic" in names


def test_schedule_notes_name_daycare_only_where_daycare_runs_the_task():
    from daycare_gui.stores.common.schedule import schedule_info
    from daycare_gui.stores.daycare.schedule_info import schedule_info as daycare_schedule

    assert schedule_info("0 7 * * *", enabled=False).runs_note() == (
        "none: the task is disabled, so its engine does not run it")
    assert daycare_schedule("0 7 * * *", enabled=False).runs_note() == (
        "none: the task is disabled, so Daycare does not run it")
    assert "Daycare" not in schedule_info("x * * * *").error
