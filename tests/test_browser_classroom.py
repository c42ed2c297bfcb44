"""A live round in a real browser: a presenter and two students in three contexts.

Two app processes of its own (``streamlit run``, as behind the app's nginx) on a fresh
data directory (the store is a SQLite file there), started once for the module: each
test opens rooms of its own (xdist group "classroom browser": one worker starts them).
The presenter opens a room and asks; two students open the room link on their
"phones", join and answer; the presenter's live count reaches 2 without a reload
(what the teacher types in the ask form stays through the live refreshes that redraw it);
the presenter reveals; each student's screen shows the result without a reload; in
presenter mode the live answers stand beside their histogram.
Every wait is on a condition (an element, a text), never a fixed time.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.server import streamlit_servers
from store import Classroom, database_url
from tests.browser import ARTIFACTS, PATIENCE_MS, metric_value, patient_context, settled
from ui import student

pytestmark = [
    pytest.mark.browser,
    pytest.mark.timeout(300),
    pytest.mark.xdist_group("classroom browser"),
]

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1400, "height": 1000}


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory):
    """Two app processes on one store (a SQLite file), as behind the app's nginx.

    Started once for the module (two server starts, where each test started its own);
    every test opens rooms of its own, so no test reads another's.
    """
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("CUBE_LAB_DATA", str(tmp_path_factory.mktemp("classroom")))
        monkeypatch.delenv("CUBE_LAB_DATABASE_URL", raising=False)
        ARTIFACTS.mkdir(exist_ok=True)
        with streamlit_servers(2, log_dir=ARTIFACTS) as servers:
            store = Classroom(database_url())
            yield [base for base, _ in servers], store
            store.dispose()


def _student(
    browser, base: str, code: str, nickname: str, prompt: str = "Take or pass at 3-away/5-away?"
):
    context = patient_context(browser, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base}/classroom?room={code}")
    settled(page)
    # on a phone the app opens with its sidebar folded (initial_sidebar_state="auto"), so
    # the room form is what a student sees first
    expect(page.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "true")
    form = page.get_by_test_id("stForm")
    expect(form.get_by_role("textbox", name="Room code")).to_have_value(code)
    form.get_by_role("textbox", name="Nickname").fill(nickname)
    page.get_by_role("button", name="Join the room").click()
    expect(page.get_by_text(prompt)).to_be_visible()
    return context, page


def _live_refresh(payload: str | bytes) -> bool:
    """A frame that ends a rerun of a fragment alone (the presenter's live refresh)."""
    if isinstance(payload, str):
        return False
    message = ForwardMsg.FromString(payload)
    return message.WhichOneof("type") == "script_finished" and (
        message.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    )


def _answer(page, choice: str) -> None:
    page.locator('[data-testid="stRadio"] label', has_text=choice).click()
    page.get_by_role("button", name="Send my answer").click()
    expect(page.get_by_text(f"Your answer: {choice}")).to_be_visible()


def test_a_presenter_and_two_students(two_processes, browser):
    (base, _), _ = two_processes
    contexts = []
    try:
        presenter_context = patient_context(browser, viewport=PROJECTOR)
        contexts.append(presenter_context)
        presenter = presenter_context.new_page()
        streams = []
        presenter.on(
            "websocket", lambda s: streams.append(s) if s.url.endswith("/_stcore/stream") else None
        )
        presenter.goto(f"{base}/classroom?sec=Present")
        settled(presenter)
        presenter.get_by_role("button", name="Open a new room").click()
        code_box = metric_value(presenter, "Room code")
        expect(code_box).to_have_text(re.compile(r"^[A-HJKMNP-Z2-9]{9}$"))
        code = code_box.inner_text().strip()
        question = presenter.get_by_role("textbox", name="Question")
        question.fill("Take or pass at 3-away/5-away?")
        # the ask form is redrawn by the live refresh: what the teacher typed stays
        for _ in range(2):
            with streams[-1].expect_event(
                "framereceived", predicate=_live_refresh, timeout=PATIENCE_MS
            ):
                pass
        expect(question).to_have_value("Take or pass at 3-away/5-away?")
        presenter.get_by_role("textbox", name="Options (multiple choice): one per line").fill(
            "Take\nPass"
        )
        presenter.get_by_role("textbox", name="The exact answer (an option, or a number)").fill(
            "Take"
        )
        presenter.get_by_role("button", name="Ask").click()
        expect(presenter.get_by_text("Question 1", exact=True)).to_be_visible()
        expect(presenter.get_by_text("Pose the next question")).to_be_visible()

        ann_context, ann = _student(browser, base, code, "Ann")
        bo_context, bo = _student(browser, base, code, "Bo")
        contexts += [ann_context, bo_context]
        _answer(ann, "Take")
        _answer(bo, "Pass")

        # the presenter's live count, without a reload
        expect(metric_value(presenter, "Answers")).to_have_text("2")
        expect(presenter.locator(".js-plotly-plot")).to_have_count(1)
        presenter.screenshot(path=str(ARTIFACTS / "classroom-presenter.png"))
        presenter.get_by_role("button", name="Reveal the answer").click()
        expect(metric_value(presenter, "The answer")).to_have_text("Take")
        expect(metric_value(presenter, "Right")).to_have_text("1 of 2")
        # on a projector the live answers stand beside their histogram (the fragment's slide)
        presenter.get_by_test_id("stSidebar").get_by_text("Presenter mode").click()
        slide_numbers = presenter.locator(".st-key-slide-numbers")
        expect(slide_numbers.get_by_test_id("stMetric")).to_have_count(3)
        expect(slide_numbers).to_contain_text("1 of 2")
        expect(presenter.locator(".st-key-slide-chart .js-plotly-plot")).to_have_count(1)

        # each student's screen shows the result, without a reload
        expect(ann.get_by_text("You answered Take: right.")).to_be_visible()
        expect(bo.get_by_text("You answered Pass: not this time.")).to_be_visible()
        expect(metric_value(bo, "The answer")).to_have_text("Take")
        bo.screenshot(path=str(ARTIFACTS / "classroom-student.png"))
        for student, other in ((ann, "Bo"), (bo, "Ann")):
            text = student.locator('[data-testid="stMain"]').inner_text()
            assert other not in text
            assert "Reveal the answer" not in text and "Presenter key" not in text
    finally:
        for context in contexts:
            context.close()


def _kept_token(page) -> None:
    """Wait until the browser keeps the visitor's identity cookie (ui.student)."""
    page.wait_for_function(f"document.cookie.includes('{student.COOKIE}=')")


def _in_room(page, nickname: str, answer: str) -> None:
    expect(page.get_by_text(f"you are {nickname}")).to_be_visible()
    expect(page.get_by_text(f"Your answer: {answer}")).to_be_visible()
    expect(page.get_by_role("button", name="Join the room")).to_have_count(0)


def test_a_student_who_reloads_is_dropped_from_the_room(two_processes, browser):
    """Issue #37 item 3: a reload (on the same or the other process) keeps the student in
    the room as the same student; joining again under the same name is still one student
    with one answer, so the teacher counts 2 answers from 2 students."""
    (one, two), store = two_processes
    room = store.open_room()
    store.ask(
        room.code,
        room.secret,
        kind="choice",
        prompt="Take or pass?",
        options=["Take", "Pass"],
        answer_key="Take",
    )
    contexts = []
    try:
        ann_context, ann = _student(browser, one, room.code, "Ann", "Take or pass?")
        contexts.append(ann_context)
        _answer(ann, "Take")
        _kept_token(ann)
        ann.reload()
        settled(ann)
        _in_room(ann, "Ann", "Take")
        ann.goto(f"{two}/classroom?room={room.code}")  # the other process
        settled(ann)
        _in_room(ann, "Ann", "Take")
        ann.get_by_role("button", name="Leave").click()
        form = ann.get_by_test_id("stForm")
        form.get_by_role("textbox", name="Nickname").fill("Ann")
        ann.get_by_role("button", name="Join the room").click()
        _in_room(ann, "Ann", "Take")
        _answer(ann, "Pass")
        bo_context, bo = _student(browser, two, room.code, "Bo", "Take or pass?")
        contexts.append(bo_context)
        _answer(bo, "Take")
        tally = store.tally(room.code, room.secret, 1)
        assert sorted(tally.values) == ["Pass", "Take"]
        assert [s.nickname for s in store.students(room.code, room.secret)] == ["Ann", "Bo"]
    finally:
        for context in contexts:
            context.close()


def test_the_presenters_room_is_gone_after_a_reload(two_processes, browser):
    """Issue #37 item 4: the presenter's reload, on either process, is back in the room
    (no key to type)."""
    (one, two), store = two_processes
    context = patient_context(browser, viewport=PROJECTOR)
    try:
        presenter = context.new_page()
        presenter.goto(f"{one}/classroom?sec=Present")
        settled(presenter)
        presenter.get_by_role("button", name="Open a new room").click()
        code_box = metric_value(presenter, "Room code")
        expect(code_box).to_have_text(re.compile(r"^[A-HJKMNP-Z2-9]{9}$"))
        code = code_box.inner_text().strip()
        _kept_token(presenter)
        expect(presenter).to_have_url(re.compile(f"room={code}"))
        presenter.reload()
        settled(presenter)
        expect(metric_value(presenter, "Room code")).to_have_text(code)
        presenter.goto(f"{two}/classroom?sec=Present&room={code}")  # the other process
        settled(presenter)
        expect(metric_value(presenter, "Room code")).to_have_text(code)
        expect(presenter.get_by_role("button", name="Open a new room")).to_have_count(0)
        presenter.get_by_role("textbox", name="Question").fill("Pips?")
        presenter.get_by_role("radio", name="Number").check(force=True)
        presenter.get_by_role("textbox", name="The exact answer (an option, or a number)").fill("8")
        presenter.get_by_role("button", name="Ask").click()
        expect(presenter.get_by_text("Question 1", exact=True)).to_be_visible()
        assert store.latest(code).prompt == "Pips?"
    finally:
        context.close()
