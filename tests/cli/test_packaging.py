"""Packaging files agree with each other and with the app; the hidden --self-test works (no build here).

packaging/check.sh builds the real PyInstaller bundle in CI; these checks are the fast part of it.
"""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from daycare_gui import __version__

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"
ICONS = REPO / "resources" / "icons"
DESKTOP = PACKAGING / "daycare-gui.desktop"
METAINFO = PACKAGING / "io.github.daycare_gui.metainfo.xml"
PNG_SIZES = (16, 32, 48, 64, 128, 256)


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive in .desktop files
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path.name} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_desktop_entry_has_the_required_keys():
    entry = desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "daycare-gui"
    assert entry["GenericName"] and entry["Comment"]
    assert entry["Exec"] == "daycare-gui %f"
    assert entry["Terminal"] == "false"
    assert entry["Categories"].split(";")[:3] == ["Development", "Database", "Utility"]
    assert "inode/directory" in entry["MimeType"].split(";")
    assert "Daycare" in entry["Keywords"].split(";")


def test_desktop_icon_name_matches_the_icon_files():
    icon = desktop_entry()["Icon"]
    assert icon == "daycare-gui"
    assert (ICONS / f"{icon}.svg").is_file()
    for size in PNG_SIZES:
        assert (ICONS / f"{icon}-{size}.png").is_file()


@pytest.mark.parametrize("size", PNG_SIZES)
def test_png_icon_has_its_pixel_size(size):
    assert png_size(ICONS / f"daycare-gui-{size}.png") == (size, size)


def test_svg_icon_is_square_svg():
    root = ET.parse(ICONS / "daycare-gui.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 256 256"


def test_render_script_and_app_agree_on_the_sizes():
    script = (PACKAGING / "render_icons.py").read_text(encoding="utf-8")
    app = (REPO / "daycare_gui" / "ui" / "app.py").read_text(encoding="utf-8")
    sizes = ", ".join(map(str, PNG_SIZES))
    assert f"SIZES = ({sizes})" in script
    assert f"for size in ({sizes}):" in app


def test_metainfo_parses_and_matches_the_desktop_file():
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == "io.github.daycare_gui"
    assert METAINFO.name == f"{root.findtext('id')}.metainfo.xml"
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name
    assert root.findtext("provides/binary") == "daycare-gui"
    assert root.findtext("project_license") == "MIT"
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.find("content_rating") is not None
    assert [r.get("version") for r in root.findall("releases/release")] == [__version__]
    images = [i.text for i in root.findall("screenshots/screenshot/image")]
    assert images and all(i.startswith("https://") and i.endswith(".png") for i in images)


def test_check_script_is_executable_and_builds_the_spec():
    check = PACKAGING / "check.sh"
    assert check.stat().st_mode & stat.S_IXUSR
    text = check.read_text(encoding="utf-8")
    assert "set -euo pipefail" in text and "packaging/daycare-gui.spec" in text and "--self-test" in text
    assert (PACKAGING / "daycare-gui.spec").is_file()


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_desktop_file_validates():
    result = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_metainfo_validates():
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(METAINFO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_self_test_flag_is_hidden_from_help():
    result = subprocess.run(
        [sys.executable, "-m", "daycare_gui", "--help"], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert result.returncode == 0 and "--self-test" not in result.stdout


def test_self_test_opens_a_demo_store_and_reports_the_agents(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-m", "daycare_gui", "--self-test"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # (Costs #37, Automations #36; Search, Prompt files and the Empty line holding them #33)
    assert "self-test ok: 15 agents, 23 navigation icons" in result.stdout
    assert not list(tmp_path.rglob("*.conf")), "the self-test must not write the user's settings"


def test_the_navigation_icons_are_package_data_and_in_the_bundle():
    """A wheel and the PyInstaller bundle both carry daycare_gui/ui/icons/*.svg (the bundle's --self-test
    then fails if any navigation entry's drawing is missing)."""
    import tomllib

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.svg" in pyproject["tool"]["setuptools"]["package-data"]["daycare_gui.ui.icons"]
    spec = (PACKAGING / "daycare-gui.spec").read_text(encoding="utf-8")
    assert 'collect_data_files("daycare_gui.ui.icons", includes=["*.svg"])' in spec
    drawings = sorted((REPO / "daycare_gui" / "ui" / "icons").glob("*.svg"))
    readme = (REPO / "daycare_gui" / "ui" / "icons" / "README.md").read_text(encoding="utf-8")
    assert drawings and all(f"| {p.stem} |" in readme for p in drawings)  # each one described and licensed
