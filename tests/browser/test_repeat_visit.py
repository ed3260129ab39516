"""A page opened again is answered 304 and shown from the browser's copy: it must look the same
(the 304 must not bring a policy that blocks the page's own styles)."""

from playwright.sync_api import Page


def test_a_share_page_opened_again_keeps_its_styles(page: Page, live_server: str) -> None:
    made = page.request.post(
        live_server + "/api/v1/games", data={"players": ["Ana", "Ben", "Cy"]}
    ).json()
    share = made["view_url"]
    blocked: list[str] = []
    page.on("console", lambda message: blocked.append(message.text))
    header = page.locator(".site-header")
    page.goto(share)
    styled = header.evaluate("e => getComputedStyle(e).display + getComputedStyle(e).padding")
    page.reload()
    page.goto(live_server + "/")
    page.goto(share)
    assert header.evaluate("e => getComputedStyle(e).display + getComputedStyle(e).padding") == (
        styled
    )
    assert not [text for text in blocked if "Content Security Policy" in text]
