"""The README's promises: the two commands first, and the replay example it shows works as shown."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

from bot import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands() -> None:
    first_block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).strip().splitlines()]
    assert commands == ["make run", "make test"]
    assert README.index("make run") < README.index("## ")


def test_readme_replay_example_gives_the_output_shown(capsys) -> None:  # type: ignore[no-untyped-def]
    script_path = ROOT / "docs" / "examples" / "robbery.json"
    blocks = re.findall(r"```json\n(.*?)```", README, re.S)
    assert json.loads(blocks[0]) == json.loads(script_path.read_text(encoding="utf-8"))
    shown = json.loads(blocks[1].replace(", …]", "]").replace("\\n…", ""))
    with contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["replay", str(script_path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["players"] == shown["players"]
    assert result["dice_left"] == shown["dice_left"]
    assert result["replies"][0]["text"].startswith(shown["replies"][0]["text"])
