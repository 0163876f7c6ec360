"""The README's quick start is what CI runs: keep the two in step."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _quick_start_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_quick_start_has_exactly_two_commands():
    commands = _quick_start_commands()
    assert len(commands) >= 2
    run_app, run_tests = commands[0], commands[1]
    assert "--demo" in run_app and "daycare-gui" in run_app
    assert "pytest" in run_tests and ".[test]" in run_tests


def test_ci_runs_the_readme_test_command_verbatim():
    run_tests = _quick_start_commands()[1]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert run_tests in ci.splitlines()


def test_ci_installs_the_qt_system_packages_the_readme_lists():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for pkg in ("libglib2.0-0", "libgl1", "libxkbcommon0", "libegl1", "libfreetype6", "libfontconfig1", "libdbus-1-3"):
        assert pkg in ci


def test_readme_and_ci_name_the_emoji_and_cjk_fonts():
    from daycare_gui.ui.fonts import CJK_DEBIAN_PACKAGE, DEBIAN_PACKAGE

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### System packages", 1)[1].split("\n## ", 1)[0]
    for package in (DEBIAN_PACKAGE, CJK_DEBIAN_PACKAGE):
        assert package in section
        assert package in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_system_packages_line_works_on_a_bare_root_image():
    """Issue 18, item 18: a fresh image needs 'apt-get update' first and may have no sudo."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### System packages", 1)[1].split("\n## ", 1)[0]
    command = re.findall(r"```sh\n(.+?)\n```", section)[0]
    assert command.startswith("apt-get update && apt-get install -y ")
    assert "sudo" not in command and "sudo" in section  # named for those who are not root
