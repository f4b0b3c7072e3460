"""The web board's tests drive a real page: `twixt web` as a real process over a real SQLite
file, headless Chromium from Debian's packages through its chromedriver (never a downloaded
browser), and the players' lines typed at the real terminal table (its command line's own
`main`, run in the test's process: see `_twixt`).

Holes and controls are found by their accessible names, as a screen reader finds them: a
hole's name begins with its name (`G6`) and holds its peg's colour; the confirmation's
begins with `Place`.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from support.processes import HANG, TWIXT, environment
from twixt.cli import main

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SECRET = "a-secret-for-the-tests-only-0123456789"
PHONE = (390, 844)
DESKTOP = (1280, 800)


def web_environment(database: Path, **more: str) -> dict[str, str]:
    env = environment(database)
    env.pop("DISCORD_TOKEN", None)
    return {**env, "TWIXT_WEB_SECRET": SECRET, **more}


@contextmanager
def web_server(database: Path, **env: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`twixt web` on a free port of this machine: the process and its base URL."""
    process = subprocess.Popen([TWIXT, "web", "--db", str(database), "--port", "0"],
                               env=web_environment(database, **env), text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=database.parent)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert found, f"twixt web did not start: {line!r}"
        yield process, found.group(0)
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=HANG)


def table(database: Path, *lines: str, channel: str = "den") -> str:
    """Lines played at the terminal table (`twixt play`), its output."""
    script = database.parent / "lines.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return _twixt("play", str(script), "--db", str(database), "--channel", channel, "--out",
                  str(database.parent / "boards"), env=web_environment(database),
                  cwd=database.parent)[1]


def link(database: Path, player: str, base: str, channel: str = "den",
         secret: str = SECRET) -> str:
    """`twixt link`: the player's signed link to their seat."""
    env = {**web_environment(database), "TWIXT_WEB_SECRET": secret}
    code, out, err = _twixt("link", "--db", str(database), "--channel", channel, "--player",
                            player, "--base-url", base, env=env, cwd=database.parent)
    assert code == 0, err
    return out.strip()


def export(database: Path, channel: str = "den") -> str:
    """`twixt export`: the channel's record."""
    return _twixt("export", "--db", str(database), "--channel", channel,
                  env=web_environment(database), cwd=database.parent)[1]


def _twixt(*args: str, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """`twixt ARGS` run by the command line's own `main` in this process, with the
    environment `env` and in the folder `cwd`: its exit code, its output and its errors.

    For what sets a page's game up or reads it back, where the command line is not what is
    tested (`tests/terminal` and `tests/web/test_serving.py` run it as a process): a process
    of its own costs about 0.7 s of CPU, nearly all of it imports. `main` runs in a thread of
    its own: its `asyncio.run` needs a thread without an event loop, and a test's may be
    running in this one."""
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for _ in range(2))
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        with (contextlib.chdir(cwd), contextlib.redirect_stdout(out),
              contextlib.redirect_stderr(err), ThreadPoolExecutor(1) as thread):
            code = thread.submit(main, list(args)).result(timeout=HANG)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    said = []
    for stream in (out, err):
        stream.flush()
        said.append(stream.buffer.getvalue().decode("utf-8"))
    return code, said[0], said[1]


#: Chromiums started and idle now, by language (`--lang` is fixed at launch): a test's
#: `chromium()` takes one and gets a tab of its own, so that the browser's start-up (about a
#: second of CPU) is paid once a process, not once a test; `quit_all` ends them
_IDLE: dict[str, list[WebDriver]] = {}
#: each started Chromium's profile folder, removed when it quits
_PROFILES: dict[WebDriver, str] = {}


@contextmanager
def chromium(size: tuple[int, int] = DESKTOP, dark: bool = False,
             lang: str = "en") -> Iterator[WebDriver]:
    """A headless Chromium showing a fresh tab with the viewport `size` (CSS pixels).

    The browser may have served an earlier test: it comes back with every other tab closed
    and no cookies or cache, and a new tab holds nothing of the old ones' (documents,
    emulation); the page keeps no storage of its own (no cookies, no web storage). A browser
    whose test failed is quit, not kept. While one is in use, another `chromium()` starts
    its own."""
    idle = _IDLE.setdefault(lang, [])
    driver = idle.pop() if idle else _launch(lang)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1,
            "mobile": size[0] < 600})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
        yield driver
        _fresh_tab(driver)
    except BaseException:
        _quit(driver)
        raise
    idle.append(driver)


def _launch(lang: str) -> WebDriver:
    """A new headless Chromium with a profile of its own, quit when this process ends."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="twixt-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", f"--lang={lang}",
                 "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    _PROFILES[driver] = profile
    return driver


def _fresh_tab(driver: WebDriver) -> None:
    """Leave `driver` with one new blank tab, the others closed, no cookies and no cache."""
    used = driver.window_handles
    driver.switch_to.new_window("tab")
    fresh = driver.current_window_handle
    for handle in used:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(fresh)
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})


def _quit(driver: WebDriver) -> None:
    with contextlib.suppress(WebDriverException, OSError):
        driver.quit()
    shutil.rmtree(_PROFILES.pop(driver), ignore_errors=True)


@atexit.register
def quit_all() -> None:
    """Quit the idle Chromiums (the tests' session ends with this, a script's process too)."""
    for idle in _IDLE.values():
        while idle:
            _quit(idle.pop())


def wait_for(condition: Callable[[], object], what: str) -> object:
    """Poll until `condition()` is truthy (page elements may be redrawn meanwhile); fail
    naming `what` after `HANG` seconds."""
    deadline = time.monotonic() + HANG
    while True:
        try:
            value = condition()
        except (StaleElementReferenceException, WebDriverException):
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.05)


def named(driver: WebDriver, start: str) -> WebElement | None:
    """The element whose accessible name (aria-label, else its text) begins with `start`."""
    for element in driver.find_elements(By.XPATH, f"//*[starts-with(@aria-label, '{start}')]"):
        return element
    for element in driver.find_elements(By.XPATH, f"//button[starts-with(normalize-space(.), "
                                                  f"'{start}')]"):
        return element
    return None


def hole(driver: WebDriver, name: str) -> WebElement | None:
    """The hole `name`: its accessible name is `G6, …` (the comma keeps G6 from G60)."""
    return named(driver, f"{name},")


def label_of(driver: WebDriver, name: str) -> str:
    """Hole `name`'s accessible name ("" where there is none), read from the board drawn now:
    a live update may redraw the board between finding the hole and reading it."""
    return str(wait_for(lambda: _label_now(driver, name) or " ", f"{name}'s label")).strip()


def _label_now(driver: WebDriver, name: str) -> str:
    found = hole(driver, name)
    return (found.get_attribute("aria-label") or "") if found else ""


def box_of(driver: WebDriver, element: WebElement) -> dict[str, float]:
    """Where `element` is on the screen, in CSS px (`getBoundingClientRect`)."""
    return driver.execute_script(  # type: ignore[no-any-return]
        "const r = arguments[0].getBoundingClientRect();"
        "return {x: r.x, y: r.y, width: r.width, height: r.height};", element)


def tap(driver: WebDriver, name: str) -> dict[str, float]:
    """A finger's tap at the middle of hole `name` (a touch pointer, as a phone's screen
    reports it: `pointerType` "touch"); the hole's box when tapped."""
    found = hole(driver, name)
    assert found is not None, name
    box = box_of(driver, found)
    # selenium's action classes carry no type hints
    touch = PointerInput(interaction.POINTER_TOUCH, "finger")  # type: ignore[no-untyped-call]
    finger = ActionBuilder(driver, mouse=touch)
    at = finger.pointer_action.move_to_location(  # type: ignore[no-untyped-call]
        round(box["x"] + box["width"] / 2), round(box["y"] + box["height"] / 2))
    at.pointer_down().pointer_up()
    finger.perform()
    return box


def scrolls_sideways(driver: WebDriver) -> bool:
    return bool(driver.execute_script(
        "return document.documentElement.scrollWidth > document.documentElement.clientWidth"
        " || document.body.scrollWidth > window.innerWidth"))


def have_browser() -> bool:
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


def press(find: Callable[[], WebElement | None], what: str) -> None:
    """Click what `find` finds, again if the page redrew it meanwhile (a live update)."""
    def pressed() -> bool:
        element = find()
        if element is None:
            return False
        element.click()
        return True
    wait_for(pressed, what)


def fill(find: Callable[[], WebElement | None], text: str, what: str) -> None:
    """Type `text` into what `find` finds, again into the new one if the page redrew it
    meanwhile (a live update keeps what was typed, but not a field it has replaced)."""
    def typed() -> bool:
        element = find()
        if element is None:
            return False
        element.send_keys(text)
        return True
    wait_for(typed, what)
