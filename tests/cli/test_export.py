"""`tablesim export DIR --format csv|xlsx`: the tidy tables and a summary sheet with the
report's headline figures."""

import pandas as pd
import pytest

from analysis.analyse import analyse
from analysis.results import load_results
from sim.cli import main
from sim.core import load_tables
from tests.analysis.toydata import make_experiment

openpyxl = pytest.importorskip("openpyxl", reason="openpyxl is a tablesim dependency")


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    return make_experiment(tmp_path_factory.mktemp("export"), matches=30)


def test_xlsx_holds_the_tables_and_the_report_figures(experiment, tmp_path, capsys):
    book = tmp_path / "out.xlsx"
    assert main(["export", str(experiment), "--format", "xlsx", "--out", str(book)]) == 0
    sheets = pd.read_excel(book, sheet_name=None)
    tables = load_tables(experiment)
    assert {"summary", "sentences", "matches", "players", "rounds", "events"} <= set(sheets)
    for name in ("matches", "players", "rounds"):
        assert len(sheets[name]) == len(tables[name])
        assert list(sheets[name].columns) == list(tables[name].columns)
    pd.testing.assert_series_equal(
        sheets["players"]["score"], tables["players"]["score"], check_names=False, check_dtype=False
    )
    summary = sheets["summary"]
    analysis = analyse(load_results(experiment))
    seats = summary[summary["figure"] == "win rate by seat"]
    assert len(seats) == len(analysis.seat_rates)
    first = analysis.seat_rates.iloc[0]
    row = seats[
        (seats["variant"] == first["variant"])
        & (seats["lineup"] == first["lineup"])
        & (seats["subject"] == f"seat {first['seat']}")
    ].iloc[0]
    assert row["value"] == pytest.approx(first["win_rate"]) and row["ci_low"] == pytest.approx(first["ci_low"])
    effects = summary[summary["figure"].str.startswith("variant effect")]
    assert len(effects) == len(analysis.effects) and effects["p_adjusted"].notna().all()
    # each effect's interval is the adjusted one, consistent with the adjusted p beside it
    first = analysis.effects.iloc[0]
    row = effects[
        (effects["variant"] == first["variant"])
        & (effects["lineup"] == first["lineup"])
        & (effects["subject"] == first["label"])
    ].iloc[0]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((first["ci_low_adjusted"], first["ci_high_adjusted"]))
    assert ((effects["ci_low"] > 0) | (effects["ci_high"] < 0)).eq(effects["p_adjusted"] < 0.05).all()
    assert effects["method"].str.contains("adjusted together").all()
    assert {"game length", "win rate by profile", "seat fairness"} <= set(summary["figure"])
    assert len(sheets["sentences"]) >= 3 and sheets["sentences"]["sentence"].str.contains("seat0-bonus").any()


def test_csv_writes_one_file_per_sheet(experiment, tmp_path, capsys):
    folder = tmp_path / "csv"
    assert main(["export", str(experiment), "--out", str(folder)]) == 0
    names = {p.name for p in folder.iterdir()}
    assert {"summary.csv", "sentences.csv", "matches.csv", "players.csv", "rounds.csv"} <= names
    assert len(pd.read_csv(folder / "rounds.csv")) == len(load_tables(experiment)["rounds"])


def test_long_tables_continue_on_further_sheets(monkeypatch, tmp_path):
    from analysis import export as module

    monkeypatch.setattr(module, "SHEET_ROWS", 7)
    written = module._write_xlsx({"rounds": pd.DataFrame({"x": range(20)})}, tmp_path / "w.xlsx")
    assert written == ["rounds", "rounds (2)", "rounds (3)"]
    back = pd.read_excel(tmp_path / "w.xlsx", sheet_name=None)
    assert sum(len(f) for f in back.values()) == 20


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["--format", "xlsx", "--out", "x.csv"], "--out x.csv: unknown extension '.csv'; allowed: .xlsx"),
        (["--format", "pdf"], "argument --format: invalid choice: 'pdf'"),
    ],
)
def test_bad_export_options_are_one_line(experiment, capsys, argv, expected):
    assert main(["export", str(experiment), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and expected in err[0]


def test_export_of_a_folder_without_results_is_refused(tmp_path, capsys):
    assert main(["export", str(tmp_path)]) == 2
    assert "not a tablesim results directory" in capsys.readouterr().err
