"""The systemd unit (deploy/cubelab@.service): it verifies, is hardened, and its memory
limit is above the worst case the hosting guide states (issue #18, item 3).

``systemd-analyze verify`` (Debian's ``systemd`` package) checks every directive and
value; it exits 0 even on an unknown key or a bad value, so its warnings count as
failures here. The unit names the production paths (/srv/cube-theory-lab); the check
runs on a copy pointing at this checkout and this Python, everything else verbatim.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "cubelab@.service"
GUIDE = ROOT / "deploy" / "README.md"
INSTALLED = "/srv/cube-theory-lab"

#: Hardening the unit must keep (directive: value).
HARDENING = {
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "PrivateDevices": "yes",
    "CapabilityBoundingSet": "",
    "RestrictSUIDSGID": "yes",
    "SystemCallFilter": "@system-service",
}

_SIZE = re.compile(r"(\d+(?:\.\d+)?)([KMGT]?)")
_UNITS = {"": 1 / 2**20, "K": 1 / 2**10, "M": 1.0, "G": 2.0**10, "T": 2.0**20}


def _sections(text: str) -> dict[str, dict[str, list[str]]]:
    """A strict reading of a unit file: sections, ``Key=value`` lines, comments, nothing else."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith(("#", ";")):
            continue
        header = re.fullmatch(r"\[([A-Za-z]+)\]", line)
        if header:
            current = sections.setdefault(header.group(1), {})
            continue
        entry = re.fullmatch(r"([A-Z][A-Za-z]+)=(.*)", line)
        assert entry and current is not None, f"line {number} is not Key=value: {line!r}"
        assert not line.endswith("\\"), f"line {number}: no continuation lines"
        current.setdefault(entry.group(1), []).append(entry.group(2))
    return sections


def _mib(value: str) -> float:
    """A systemd size (``600M``, ``1G``) in MiB (systemd's K/M/G are powers of 1024)."""
    found = _SIZE.fullmatch(value)
    assert found, f"not a size: {value!r}"
    return float(found.group(1)) * _UNITS[found.group(2)]


def _guide_worst_case_mib() -> float:
    """The worst case the hosting guide states: "Worst case measured: N MiB"."""
    found = re.search(r"Worst case\s+measured:\s+(\d+) MiB", GUIDE.read_text(encoding="utf-8"))
    assert found, "deploy/README.md states no 'Worst case measured: N MiB'"
    return float(found.group(1))


def test_the_unit_parses_and_is_hardened():
    unit = _sections(UNIT.read_text(encoding="utf-8"))
    assert set(unit) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    for key, value in HARDENING.items():
        assert value in service.get(key, []), f"{key}={value} missing"
    assert service["User"] != ["root"] and service["User"]
    (command,) = service["ExecStart"]
    assert "--server.address 127.0.0.1" in command and "--server.port %i" in command


def test_the_memory_limit_is_above_the_stated_worst_case():
    service = _sections(UNIT.read_text(encoding="utf-8"))["Service"]
    (high,) = service["MemoryHigh"]
    (limit,) = service["MemoryMax"]
    worst = _guide_worst_case_mib()
    assert worst < _mib(high) < _mib(limit), (worst, high, limit)
    assert f"MemoryMax={limit}" in GUIDE.read_text(encoding="utf-8"), "guide and unit differ"


def test_the_size_reader():
    assert _mib("600M") == 600 and _mib("1G") == 1024 and _mib("512K") == 0.5
    with pytest.raises(AssertionError, match="not a size"):
        _mib("lots")


def _verify(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of ``text`` moved to this checkout; its result."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze is missing: install Debian's systemd package")
    text = text.replace(f"{INSTALLED}/.venv/bin/python", sys.executable)
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace(INSTALLED, str(ROOT)), encoding="utf-8")
    command = [analyze, "verify", "--man=no", str(copy)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_systemd_analyze_verify_has_nothing_to_say(tmp_path):
    result = _verify(UNIT.read_text(encoding="utf-8"), tmp_path)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def test_systemd_analyze_verify_catches_a_bad_value(tmp_path):
    """The check above can fail: a misspelt key and a bad value are reported."""
    text = UNIT.read_text(encoding="utf-8")
    result = _verify(
        text.replace("ProtectSystem=strict", "ProtectSystem=bogus\nMemryMax=1G"), tmp_path
    )
    assert "MemryMax" in result.stderr and "protect system" in result.stderr, result.stderr
