"""Browser test of the drills page: one link gives two browsers the same quiz.

Playwright drives Debian's Chromium against a real ``streamlit run`` (the ``server`` and
``browser`` fixtures of tests/conftest.py); every wait is on a condition, never a time.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from cubecore import drills
from tests.browser import ARTIFACTS, metric_value, patient_context, settled
from tests.test_browser_pages import VIEWPORT
from ui import student
from ui.pages import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

QUIZ = {"topic": "take_point", "level": "2", "n": "4", "seed": "321"}

READ_QUESTIONS = """() => [...document.querySelectorAll('[data-testid="stMarkdownContainer"]')]
  .map(m => m.innerText.trim())
  .filter(t => /^Question \\d+\\./.test(t))"""


def questions_in_a_fresh_browser(browser, url: str, name: str) -> list[str]:
    context = patient_context(browser, viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(url)
        settled(page)
        page.get_by_text("Question 4.", exact=False).first.wait_for()
        shown = page.evaluate(READ_QUESTIONS)
        page.screenshot(path=str(ARTIFACTS / f"drills-{name}.png"))
        return shown
    finally:
        context.close()


def test_the_same_link_shows_the_same_questions_in_two_browsers(server, browser):
    url = f"{server}/drills?{urlencode({**QUIZ, 'sec': 'All at once'})}"
    first = questions_in_a_fresh_browser(browser, url, "first")
    second = questions_in_a_fresh_browser(browser, url, "second")
    expected = [
        f"Question {i + 1}. {q.prompt}" for i, q in enumerate(drills.quiz("take_point", 321, 2, 4))
    ]
    assert first == second == expected
    other = questions_in_a_fresh_browser(browser, url.replace("seed=321", "seed=322"), "other")
    assert other != first


def test_an_answer_is_graded_and_stays_out_of_the_link(server, page):
    from playwright.sync_api import expect

    page.set_viewport_size(VIEWPORT)
    page.goto(f"{server}/drills?{urlencode(QUIZ)}")
    settled(page)
    question = drills.quiz("take_point", 321, 2, 4)[0]
    box = page.get_by_label("Your answer (percent)")
    box.fill(f"{question.answer:.2f}")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_text("Correct: the exact value is")).to_be_visible()
    expect(page.get_by_role("link", name="See it on: Cube calculator")).to_be_visible()
    settled(page)
    assert f"{question.answer:.2f}" not in page.url
    assert "seed=321" in page.url
    # the link opens the cube calculator at the question's score and table
    page.get_by_role("link", name="See it on: Cube calculator").click()
    expect(page).to_have_url(re.compile(r"/cube\?"))
    settled(page)
    query = parse_qs(urlparse(page.url).query)
    wanted = question.query
    cube = {c.key: c for c in next(s for s in PAGES if s.url_path == "cube").controls}
    for key in ("met", "away", "oaway"):  # as the link spells them (the table's name)
        assert query.get(key) == [cube[key].format(wanted[key])], (key, page.url)


def _attempt_csv(page) -> list[dict[str, str]]:
    """The rows of the "Your attempt" table as its CSV download gives them."""
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("section", ["One by one", "All at once"])
def test_drills_leak_the_answers(server, page, section):
    """Issue #37 item 1: after question 1, the attempt table showed the exact answers of
    the questions still to come; an exact answer is shown once its question is answered."""
    from playwright.sync_api import expect

    page.set_viewport_size(VIEWPORT)
    page.goto(f"{server}/drills?{urlencode({**QUIZ, 'sec': section})}")
    settled(page)
    questions = drills.quiz("take_point", 321, 2, 4)
    page.get_by_label("Your answer (percent)").first.fill(f"{questions[0].answer:.2f}")
    page.get_by_role(
        "button", name="Check" if section == "One by one" else "Grade my answers"
    ).click()
    graded = "Correct: the exact value is" if section == "One by one" else "Question 1: right"
    expect(page.get_by_text(graded).first).to_be_visible()
    settled(page)
    rows = _attempt_csv(page)
    assert len(rows) == 4
    assert questions[0].shown_answer in rows[0].values()
    for row, question in zip(rows[1:], questions[1:], strict=True):
        assert question.shown_answer not in " ".join(row.values()), (section, row)
    assert not any(
        q.shown_answer in page.locator('[data-testid="stMain"]').inner_text() for q in questions[1:]
    )


def test_a_reload_resets_the_drill_score(server, page):
    """Issue #37 item 16: after a reload the quiz link's score is the student's, not 0/0."""
    from playwright.sync_api import expect

    page.set_viewport_size(VIEWPORT)
    page.goto(f"{server}/drills?{urlencode({**QUIZ, 'seed': '4321'})}")
    settled(page)
    question = drills.quiz("take_point", 4321, 2, 4)[0]
    page.get_by_label("Your answer (percent)").fill(f"{question.answer:.2f}")
    page.get_by_role("button", name="Check").click()
    expect(metric_value(page, "Score")).to_have_text("1 / 1")
    page.wait_for_function(f"document.cookie.includes('{student.COOKIE}=')")
    page.reload()
    settled(page)
    expect(metric_value(page, "Score")).to_have_text("1 / 1")
    expect(metric_value(page, "Answered")).to_have_text("1 of 4")
    expect(page.get_by_text("Correct: the exact value is")).to_be_visible()
