"""Browser test of the drills page's real positions: a wrong answer in one browser comes
back in that browser's review after a reload (the token travels in the cookie), with the
board, the verdict and the link to the position page.

Playwright drives Debian's Chromium against a real ``streamlit run`` (the ``server`` and
``browser`` fixtures of tests/conftest.py); every wait is on a condition, never a time.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from cubecore.position_drills import position_quiz
from tests.browser import ARTIFACTS, patient_context, settled
from tests.test_browser_pages import VIEWPORT

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

QUIZ = {"topic": "double", "level": "1", "n": "3", "seed": "9021"}


def test_a_wrong_answer_comes_back_in_the_review_after_a_reload(server, browser):
    from playwright.sync_api import expect

    question = position_quiz("double", 9021, 1, 3)[0]
    wrong = next(c for c in question.choices if c not in question.accepted)
    context = patient_context(browser, viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{server}/drills?{urlencode(QUIZ)}")
        settled(page)
        expect(
            page.get_by_text(f"gnubg Position ID {question.position.position_id}")
        ).to_be_visible()
        page.get_by_role("radiogroup").get_by_text(wrong, exact=True).click()
        page.get_by_role("button", name="Check").click()
        expect(page.get_by_text(f"it says {question.answer}")).to_be_visible()
        expect(
            page.get_by_role("link", name="Open this position at this score on the position page")
        ).to_be_visible()
        settled(page)
        page.screenshot(path=str(ARTIFACTS / "drills-position-verdict.png"), full_page=True)
        # a new page load: the token comes back from the cookie, the review has the position
        page.goto(f"{server}/drills?{urlencode({'topic': 'review', 'n': '10'})}")
        settled(page)
        expect(
            page.get_by_text(f"gnubg Position ID {question.position.position_id}")
        ).to_be_visible()
        expect(page.get_by_text("Your error rate by theme")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "drills-review.png"), full_page=True)
    finally:
        context.close()
    # another browser (another student) has nothing to review
    other = patient_context(browser, viewport=VIEWPORT)
    try:
        page = other.new_page()
        page.goto(f"{server}/drills?{urlencode({'topic': 'review'})}")
        settled(page)
        expect(page.get_by_text("Nothing to review now", exact=False)).to_be_visible()
    finally:
        other.close()
