"""Headless Chromium for the replay pages' tests (installed by `make browser`, which
`make test` runs, where it can): a page is loaded from a file and its DOM read back."""
import re
import shutil
import subprocess

import pytest


def chromium() -> str:
    """The browser's path, or the test skips saying how to install one."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium found: `make test` installs it with apt-get where it can "
                "(apt-get install chromium)")


def dump(browser: str, url: str) -> tuple[str, str]:
    """(the page's DOM once its scripts ran, the browser's log)."""
    out = subprocess.run([browser, "--headless", "--disable-gpu", "--no-sandbox",
                          "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000",
                          "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout, out.stderr


def page_errors(dom: str, log: str) -> list[str]:
    """What went wrong on a replay page: its #errors box (script errors are reported
    there) and uncaught errors in the browser's console."""
    found = []
    box = re.search(r'<div id="errors">(.*?)</div>', dom, re.S)
    if box is None:
        found.append("no #errors box: the page did not load")
    elif box.group(1).strip():
        found.append(box.group(1).strip())
    found += re.findall(r".*(?:CONSOLE.*(?:Error|Uncaught)|Uncaught).*", log)
    return found


def score_rows(dom: str) -> list[tuple[int, int, bool]]:
    """The final scores table as shown: (seat, points, winner)."""
    rows = re.findall(r'<tr class="score"><td class="seat">(\d+)</td><td>[^<]*</td>'
                      r'<td class="num vp">(-?\d+)</td><td>(\w*)</td></tr>', dom)
    return [(int(s), int(v), w == "winner") for s, v, w in rows]


STEP_ALL = """<script>
// test only: draw every step, first to last, then say how many were drawn
try { for (let i = 0; i < G.steps.length; i++) go(i);
      document.body.append(el("div", {id: "stepped"}, "stepped " + G.steps.length)); }
catch (e) { report("stepping: " + (e && e.message ? e.message : String(e))); }
</script>
"""


def stepping_all(html: str) -> str:
    """A copy of a replay page that, once loaded, draws every step in turn (ending at
    the last) and then adds ``<div id="stepped">stepped N</div>``."""
    assert html.count("</body>") == 1
    return html.replace("</body>", STEP_ALL + "</body>")
