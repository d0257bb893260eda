"""The report opens in headless Chromium with no errors and every image decoded and visible."""

import re
import shutil
import subprocess

import matplotlib.image as mpimg
import numpy as np
import pytest

from analysis.report import build_report

from .toydata import make_experiment

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--virtual-time-budget=10000"]

# Injected into a copy of the report (the report itself has no script): after load, writes how
# many images decoded with a non-zero size, and any script error, into the DOM.
PROBE = """<script>
window.__errors = [];
window.addEventListener('error', e => window.__errors.push(String(e.message || e)), true);
window.addEventListener('load', () => {
  const imgs = Array.from(document.images);
  const ok = imgs.filter(i => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 0);
  const out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = 'IMAGES ' + ok.length + '/' + imgs.length + ' ERRORS ' + window.__errors.length;
  document.body.appendChild(out);
});
</script></body>"""


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)")
def test_report_renders_in_headless_chromium(tmp_path):
    folder = make_experiment(tmp_path / "exp", matches=36)
    report = build_report(folder)
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    profile = tmp_path / "profile"
    dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r"IMAGES (\d+)/(\d+) ERRORS (\d+)", dom.stdout)
    assert found, dom.stdout[-2000:]
    decoded, total, errors = map(int, found.groups())
    assert total >= 5 and decoded == total and errors == 0
    shot = tmp_path / "report.png"
    result = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--window-size=1280,2400",
                             f"--screenshot={shot}", report.as_uri()], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and shot.exists(), result.stderr[-2000:]
    pixels = mpimg.imread(shot)[..., :3]
    assert pixels.shape[0] >= 2000 and pixels.shape[1] >= 1200
    # not a blank page: text and plots make the page vary, and something dark is drawn
    assert float(np.std(pixels)) > 0.05 and float(pixels.min()) < 0.3
