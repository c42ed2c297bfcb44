"""The machine a measurement ran on: date, cores, CPU model, memory, versions."""

from __future__ import annotations

import datetime as _dt
import os
import platform
from importlib import metadata


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> float:
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 1024**2
    except OSError:
        pass
    return float("nan")


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def describe() -> str:
    """One markdown line naming the date and machine."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    now = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{now}; nproc {os.cpu_count()}; {_cpu_model()}; {_memory_gib():.1f} GiB RAM; "
        f"load average {load:.2f} at start; Python {platform.python_version()}, "
        f"streamlit {_version('streamlit')}, plotly {_version('plotly')}, "
        f"numpy {_version('numpy')}, pandas {_version('pandas')}"
    )
