"""The landing page in a real browser at phone size."""

from pathlib import Path

from playwright.sync_api import Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_landing_page_fits_a_phone(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Keep score for Mexican Train dominoes"
    )
    expect(page.get_by_role("link", name="New game")).to_be_visible()
    assert page.viewport_size == {"width": 390, "height": 844}
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    new_game_height = page.get_by_role("link", name="New game").bounding_box()["height"]
    assert new_game_height >= 48
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "landing.png"), full_page=True)


def test_landing_page_fits_360px(page: Page, live_server: str) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(live_server + "/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
