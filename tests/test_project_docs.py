"""The project's face: the README a visitor reads, the docs an engineer reads, the changelog.

Every link of README.md, CHANGELOG.md and docs/*.md that is not a web address resolves to a
file of the repository and, when it names a heading (``#anchor``), to a heading of that file
as GitHub spells its anchor. The README stays short and about the app.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])

#: ``[text](target)`` and ``![alt](target)``, the target up to a space or the closing bracket.
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.MULTILINE | re.DOTALL)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_EXTERNAL = ("http://", "https://", "mailto:")


def prose(text: str) -> str:
    """The text without its fenced code blocks (a link shown as code is not a link)."""
    return _FENCE.sub("", text)


def links(text: str) -> list[str]:
    return _LINK.findall(prose(text))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    heading = re.sub(r"`|\*\*|__", "", heading)
    heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor, the repeated ones numbered as GitHub numbers them."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in _HEADING.findall(prose(text)):
        base = anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(document: Path, root: Path) -> list[str]:
    """The links of ``document`` that name no file under ``root``, or no heading of it."""
    broken = []
    for target in links(document.read_text(encoding="utf-8")):
        if target.startswith(_EXTERNAL):
            continue
        path_part, _, fragment = target.partition("#")
        resolved = (document.parent / path_part).resolve() if path_part else document
        inside = resolved == root or root in resolved.parents
        heading_known = (
            not fragment
            or not resolved.is_file()
            or resolved.suffix != ".md"
            or fragment in anchors(resolved.read_text(encoding="utf-8"))
        )
        if not inside or not resolved.exists() or not heading_known:
            broken.append(target)
    return broken


def test_every_internal_link_resolves():
    assert len(DOCUMENTS) >= 7  # README, CHANGELOG and the five docs are there
    checked = {doc.relative_to(ROOT).as_posix(): broken_links(doc, ROOT) for doc in DOCUMENTS}
    assert {doc: bad for doc, bad in checked.items() if bad} == {}
    assert sum(len(links(doc.read_text(encoding="utf-8"))) for doc in DOCUMENTS) >= 30


def test_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A page\n\n## Where `state` lives\n\nText.\n")
    readme = tmp_path / "README.md"
    readme.write_text(
        "[ok](docs/a.md) [ok](docs/a.md#where-state-lives) [ok](#top) [web](https://x.org)\n"
        "[gone](docs/b.md) [no heading](docs/a.md#nowhere) ![img](docs/pic.png)\n"
        "```\n[in code](nowhere.md)\n```\n# Top\n"
    )
    assert broken_links(readme, tmp_path) == ["docs/b.md", "docs/a.md#nowhere", "docs/pic.png"]


def test_anchor_spelling_follows_github():
    assert anchor("Load, soak and scale") == "load-soak-and-scale"
    assert anchor("[0.8.0] - 2026-11-28") == "080---2026-11-28"
    assert anchor("Streamlit and `pages/`") == "streamlit-and-pages"
    assert anchors("# Sources\n## Sources\n") == {"sources", "sources-1"}


README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_is_short_and_about_the_app():
    assert len(README.splitlines()) <= 160
    # no lab notebook: no benchmark runs, no issue or session numbers
    assert re.findall(r"\bpass(?:es)?\b|\bissue|\bsession|#\d", README, flags=re.IGNORECASE) == []
    for part in ("## A tour of the pages", "## Start it", "## Hosting", "## Sources"):
        assert part in README


def test_readme_has_the_two_setup_commands():
    blocks = re.findall(r"^```sh\n(.*?)^```", README, flags=re.MULTILINE | re.DOTALL)
    commands = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    assert [command for command in commands if command] == ["make run", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_screenshots_are_small_pngs():
    images = [target for target in links(README) if target.endswith(".png")]
    assert len(images) == 3
    for image in images:
        data = (ROOT / image).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", image
        assert len(data) <= 200 * 1024, image


def test_make_check_figure_is_in_the_benchmarks_with_date_and_machine():
    benchmarks = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    row = next(line for line in benchmarks.splitlines() if line.startswith("| `make check` |"))
    assert re.search(r"\d+ min \d+ s", row) and re.search(r"20\d\d-\d\d-\d\d", row), row
    assert "EPYC" in row or "Xeon" in row, row


def test_version_moves_with_the_changelog():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d\d-\d\d$", changelog, re.MULTILINE)
    assert released, "CHANGELOG.md lists no released version"
    assert project["version"] == released[0]
    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
