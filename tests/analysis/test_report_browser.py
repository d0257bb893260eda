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
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--virtual-time-budget=10000",
]

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


def images_and_errors(page, tmp_path) -> tuple[int, int, int]:
    """(images decoded and visible, images, script errors) of the HTML file ``page`` opened in
    headless Chromium (a copy with :data:`PROBE` injected, in ``tmp_path``)."""
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", probe.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r"IMAGES (\d+)/(\d+) ERRORS (\d+)", dom.stdout)
    assert found, dom.stdout[-2000:]
    decoded, total, errors = map(int, found.groups())
    return decoded, total, errors


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)")
def test_report_renders_in_headless_chromium(tmp_path):
    folder = make_experiment(tmp_path / "exp", matches=36)
    report = build_report(folder)
    decoded, total, errors = images_and_errors(report, tmp_path)
    assert total >= 5 and decoded == total and errors == 0
    profile = tmp_path / "profile"
    shot = tmp_path / "report.png"
    result = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            "--window-size=1280,2400",
            f"--screenshot={shot}",
            report.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0 and shot.exists(), result.stderr[-2000:]
    pixels = mpimg.imread(shot)[..., :3]
    assert pixels.shape[0] >= 2000 and pixels.shape[1] >= 1200
    # not a blank page: text and plots make the page vary, and something dark is drawn
    assert float(np.std(pixels)) > 0.05 and float(pixels.min()) < 0.3


# The report uses the width of a 1280 px window (tables readable, not every cell wrapped) and
# prints on A4 without a table cut at the page's edge. The probe measures the
# screen layout, then applies the report's own @media print rules (copied out of its style
# sheet) at the A4 text width (210 mm − 2 × 14 mm margins) and measures every table again.
LAYOUT_PROBE = """<script>
window.addEventListener('load', () => {
  const cells = Array.from(document.querySelectorAll('td'));
  const lineHeight = parseFloat(getComputedStyle(document.querySelector('td')).lineHeight) || 16;
  const textHeight = c => { const r = document.createRange(); r.selectNodeContents(c); return r.getBoundingClientRect().height; };
  const wrapped = cells.filter(c => textHeight(c) > 1.6 * lineHeight).length;
  const main = document.querySelector('main').getBoundingClientRect().width;
  const cut = () => Array.from(document.querySelectorAll('.table-wrap')).filter(
    w => w.querySelector('table').getBoundingClientRect().width > w.getBoundingClientRect().width + 1).length;
  const screenCut = cut();
  const rules = [];
  for (const sheet of document.styleSheets) for (const rule of sheet.cssRules)
    if (rule.media && rule.media.mediaText.includes('print')) for (const r of rule.cssRules) rules.push(r.cssText);
  const style = document.createElement('style');
  style.textContent = rules.join('\\n') + '\\nbody { width: 182mm; margin: 0; }';
  document.head.appendChild(style);
  const printCut = cut();
  const out = document.createElement('pre');
  out.id = 'layout';
  out.textContent = 'LAYOUT ' + JSON.stringify({main, cells: cells.length, wrapped, screenCut, printCut,
                                                printRules: rules.length}) + ' END';
  document.body.appendChild(out);
});
</script></body>"""


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)")
def test_report_uses_a_wide_window_and_prints_on_a4_uncut(tmp_path):
    import json

    folder = make_experiment(tmp_path / "exp", matches=36)
    report = build_report(folder, n_resamples=200)
    probe = tmp_path / "layout.html"
    probe.write_text(report.read_text(encoding="utf-8").replace("</body>", LAYOUT_PROBE), encoding="utf-8")
    dom = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1280,900",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'<pre id="layout">LAYOUT (.*?) END</pre>', dom.stdout)
    assert found, dom.stdout[-2000:]
    seen = json.loads(found[1])
    assert seen["main"] >= 1150  # was about 700 px
    assert seen["wrapped"] / seen["cells"] < 0.1, seen  # tables readable: few cells wrap
    assert seen["screenCut"] == 0 and seen["printRules"] >= 5
    assert seen["printCut"] == 0, seen  # no table wider than the A4 text width
    pdf = tmp_path / "report.pdf"
    printed = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            report.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert printed.returncode == 0 and pdf.stat().st_size > 10_000, printed.stderr[-2000:]
    assert re.search(rb"/MediaBox \[0 0 59[45][.0-9]* 84[12]", pdf.read_bytes())  # A4, from the @page rule
