"""A ``git-memory`` that notes each call and runs the real one: put first on a host's PATH, it shows
which events a plugin file sent, with what payload, and when each had been handled.

    calls = HookRecorder(tmp_path / "bin", real=git_memory_path)
    env["PATH"] = f"{calls.bin_dir}:{env['PATH']}"
    ... run the host ...
    assert [c["payload"]["hook_event_name"] for c in calls.calls()] == [...]

A call is noted once the real command has finished, so a noted call's effects are in place.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

SCRIPT = """#!{python}
import json, subprocess, sys
data = sys.stdin.buffer.read()
done = subprocess.run([{real!r}, *sys.argv[1:]], input=data, capture_output=True)
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps({{"argv": sys.argv[1:], "payload": json.loads(data or b"null")}}) + "\\n")
sys.exit(done.returncode)
"""


class HookRecorder:
    def __init__(self, bin_dir: Path, real: str) -> None:
        self.bin_dir, self.log = bin_dir, bin_dir / "calls.jsonl"
        bin_dir.mkdir(parents=True, exist_ok=True)
        script = bin_dir / "git-memory"
        script.write_text(SCRIPT.format(python=sys.executable, real=real, log=str(self.log)), encoding="utf-8")
        script.chmod(0o755)

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line.endswith("}")]
