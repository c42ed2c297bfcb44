"""Assertions shared by the pages' bad-link tests."""

import re

#: A markdown or HTML character from the link that is not escaped.
UNESCAPED_MARKUP = re.compile(r"(?<!\\)[<\[`]")


def the_one_notice(at, key: str) -> str:
    """The page ran, showed exactly one notice, naming ``key``, inert text; return it."""
    assert not at.exception
    notices = [warning.value for warning in at.warning]
    assert len(notices) == 1, notices
    notice = notices[0]
    assert f"**{key}**" in notice and "ignored" in notice and "using" in notice
    assert not UNESCAPED_MARKUP.search(notice)
    return notice
