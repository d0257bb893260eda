"""python -m analysis.screenshots without a browser: one error line, exit 2, nothing run or written."""

from analysis import screenshots


def test_no_chromium_is_one_line_and_exit_2_before_the_demo_runs(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(screenshots, "chromium", lambda: None)
    ran = []
    monkeypatch.setattr(screenshots, "_tablesim", lambda *argv: ran.append(argv))
    assert screenshots.main(["--demo", str(tmp_path / "demo"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no Chromium found" in err[0]
    assert ran == [] and list(tmp_path.iterdir()) == []
