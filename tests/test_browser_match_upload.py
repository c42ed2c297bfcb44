"""Browser test of the match page's table upload (Playwright, Debian's Chromium)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote_plus

import pytest

from cubecore import met
from tests.browser import ARTIFACTS, metric_value
from ui.match.controls import TABLE_LABELS, UPLOADED_TABLE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "met" / "woolsey.met"


def test_upload_a_sample_table_and_read_its_value(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/match?sec=Tables&away=7&oaway=4")
    label = "Your MWC on the table, 7-away/4-away"
    kxg2 = met.load_table("kxg2").mwc(7, 4)
    expect(metric_value(page, label)).to_have_text(f"{kxg2:.2%}")

    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(SAMPLE))
    woolsey = met.load_table("woolsey").mwc(7, 4)
    expect(metric_value(page, label)).to_have_text(f"{woolsey:.2%}")
    expect(page.get_by_text("Uploaded in this session: woolsey.met")).to_be_visible()
    uploaded = quote_plus(dict(TABLE_LABELS)[UPLOADED_TABLE])  # as the select box shows it
    expect(page).to_have_url(re.compile(f"met={re.escape(uploaded)}"))
    page.screenshot(path=str(ARTIFACTS / "match-upload.png"))
