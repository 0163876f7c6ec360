"""The secrets sweep for CianaParrot (its config and local config, the .env file beside them, a provider's
credentials, run configuration copied into checkpoint metadata, secret-named fields inside a checkpoint and the
Claude Code state file), and the one place every command-line output of every kind is checked.

``CLI_OUTPUTS`` lists the commands whose output a user may paste anywhere (``{out}`` stands for an output path,
whose file is then read too). Exports are swept per session by ``sweep.texts``, in every format.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from tests.crash import sweep

CIANA = ("sk-ant-sweep-config-11aa22bb", "sweep-telegram-token-33cc", "sk-sweep-local-44dd55ee",
         "sk-ant-sweep-dotenv-66ff77", "sweep-oauth-88aa99bb", "sk-sweep-runconfig-00ccdd", "sk-sweep-ckpt-field-ee11")


def planted_ciana(root: Path) -> tuple[Path, tuple[str, ...]]:
    from tests.stores.cianaparrot.builder import add_raw_checkpoint, make_deployment

    make_deployment(root)
    (root / "config.yaml").write_text(
        'agent:\n  workspace: "./workspace"\n  data_dir: "./data"\n'
        'provider:\n  name: anthropic\n  api_key: "' + CIANA[0] + '"\n'
        'channels:\n  telegram:\n    token: "' + CIANA[1] + '"\n'
        "env:\n  OPENAI_API_KEY: " + CIANA[2] + "\n")
    (root / "config.local.yaml").write_text("provider:\n  api_key: " + CIANA[2] + "\n")
    (root / ".env").write_text(f"ANTHROPIC_API_KEY={CIANA[3]}\nTELEGRAM_BOT_TOKEN={CIANA[1]}\n")
    states = json.loads((root / "data" / "cc_user_states.json").read_text())
    states["123456"]["oauth_token"] = CIANA[4]
    (root / "data" / "cc_user_states.json").write_text(json.dumps(states, indent=2))
    meta = json.dumps({"source": "loop", "step": 9, "parents": {}, "api_key": CIANA[5],
                       "configurable": {"anthropic_api_key": CIANA[5]}}).encode()
    payload = msgpack.packb({"v": 1, "channel_values": {"messages": [], "apiKey": CIANA[6]}}, use_bin_type=True)
    add_raw_checkpoint(root / "data" / "checkpoints.db", "telegram_123456", "1f0-sweep", "msgpack", payload,
                       metadata=meta)
    return root, CIANA


PLANTED = {"cianaparrot": planted_ciana}

# Each: argument list with {store}, {out} (a file path the command writes) and {query}.
CLI_OUTPUTS = [
    ["inspect", "--json", "{store}"],
    ["inspect", "{store}"],
    ["search", "{store}", "{query}", "--json"],
]


def run_outputs(store: Path, tmp_path: Path, capsys, query: str = "sweep") -> str:
    """Everything the command-line outputs of ``CLI_OUTPUTS`` print or write for ``store``."""
    seen = []
    for n, template in enumerate(CLI_OUTPUTS):
        out = tmp_path / f"out{n}"
        args = [a.format(store=store, out=out, query=query) for a in template]
        main(args)
        captured = capsys.readouterr()
        seen += [captured.out, captured.err]
        if out.is_file():
            seen.append(out.read_bytes().decode("utf-8", "replace"))
        elif out.is_dir():
            seen += [p.read_bytes().decode("utf-8", "replace") for p in sorted(out.rglob("*")) if p.is_file()]
    return "\n".join(seen)


@pytest.mark.parametrize("kind", list(PLANTED))
def test_planted_secrets_never_in_records_or_command_output(kind, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    root, secrets = PLANTED[kind](tmp_path / "store")
    with registry.open_store(root, kind=kind) as store:
        for text in sweep.texts(store):
            assert not sweep.leaks(text, secrets), text[:300]
        assert not sweep.leaks(json.dumps(store.report(), default=str), secrets)
        assert not any(sweep.leaks(p.message, secrets) for p in store.problems)
    found = sweep.leaks(run_outputs(root, tmp_path, capsys, "sweep"), secrets)  # every planted secret says sweep
    assert not found, f"command output shows {found}"
