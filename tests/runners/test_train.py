"""`cargo-sim train strong`: a tiny training is reproducible, independent of workers,
resumable after any generation to the same result; its output and errors."""
import json
import tomllib

import pytest

from cargo_sim.cli.main import main
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.strong import TrainSpec, parse_strong
from cargo_sim.runners.train import train

TINY = TrainSpec(family="expert", space={"coin_value": (0.6, 2.5), "hold": (0.3, 1.2)},
                 fields={2: (("expert",),), 3: (("greedy", "expert?hold=0.8"),)},
                 games_per_eval=12, popsize=3, generations=2, finalists=2,
                 validation_games=12, fresh_games=24)


def run(out, **kw):
    return train("cargo_noir", out, **{"seed": 5, "workers": 1, "progress": False, "spec": TINY, **kw})


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    return run(tmp_path_factory.mktemp("train") / "a")


def params(path):
    return tomllib.loads(path.read_text())["strong"]["params"]


def test_output_is_a_loadable_strong_toml_with_provenance(first):
    text = first.path.read_text()
    assert text.startswith("# written by cargo-sim train strong")
    d = tomllib.loads(text)
    prov = d["provenance"]
    assert d["strong"]["family"] == "expert" and prov["seed"] == 5 and prov["generations"] == 2
    assert prov["reproduce"].startswith("cargo-sim train strong --game cargo_noir --seed 5")
    # every game played is counted: 2 generations x 3 candidates x (12 + 12) games, the
    # finalists' validation, then the chosen one and the start on 24 fresh games per field
    n_final = len(first.finalists)
    assert prov["games_played"] == 2 * 3 * 24 + n_final * 24 + 2 * 2 * 24
    assert set(prov["measured"]) == {"p2_f0", "p3_f0"}
    m = prov["measured"]["p2_f0"]
    assert m["games"] == 24 and m["lo"] <= m["win_rate"] <= m["hi"] and m["field"] == "expert"
    from cargo_sim.core.contract import get_game
    data = parse_strong(text, get_game("cargo_noir").bots)
    assert list(data.params) == list(get_game("cargo_noir").bots.get("expert").params)
    # only the searched parameters move, within their ranges, rounded to 2 decimals
    expert = get_game("cargo_noir").bots.get("expert").params
    assert all(data.params[k] == v for k, v in expert.items() if k not in TINY.space)
    assert 0.6 <= data.params["coin_value"] <= 2.5 and 0.3 <= data.params["hold"] <= 1.2
    assert round(data.params["coin_value"], 2) == data.params["coin_value"]
    h = first.history
    assert len(h) == 6 and h["generation"].tolist() == [1, 1, 1, 2, 2, 2]
    assert h["spec"].iloc[0] == "expert"            # generation 1 starts at the family's values


def test_same_seed_same_result_for_any_workers(first, tmp_path):
    again = run(tmp_path / "b", workers=2)
    assert params(again.path) == params(first.path)
    assert again.history["score"].tolist() == first.history["score"].tolist()
    assert again.measured.equals(first.measured)


def test_resume_after_generation_one_is_the_uninterrupted_run(first, tmp_path):
    out = tmp_path / "c"

    def stop(line):
        if "generation 1/2" in line:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        run(out, progress=stop)
    ck = json.loads((out / "checkpoint.json").read_text())
    assert ck["generation"] == 1 and not (out / "strong.toml").exists()
    lines = []
    r = run(out, resume=True, progress=lines.append)
    assert lines[0].endswith("resuming after generation 1")
    assert params(r.path) == params(first.path)
    assert r.history.equals(first.history)
    # resuming a finished training measures it again: the same file but for its date
    prov = tomllib.loads(r.path.read_text())["provenance"]
    again = tomllib.loads(run(out, resume=True).path.read_text())["provenance"]
    assert {**again, "date": 0} == {**prov, "date": 0}
    assert prov["games_played"] == tomllib.loads(first.path.read_text())["provenance"]["games_played"]
    # another seed's options refuse this checkpoint; a folder with no checkpoint has nothing to resume
    with pytest.raises(ConfigError, match=r"another training \(seed differs\)"):
        run(out, resume=True, seed=6)
    with pytest.raises(ConfigError, match="holds no training checkpoint"):
        run(tmp_path / "empty", resume=True)


def test_bad_inputs_are_one_line(tmp_path):
    with pytest.raises(ConfigError, match="has no parameter 'nope'"):
        run(tmp_path / "x", spec=TrainSpec("expert", {"nope": (0, 1)}, {2: (("expert",),)}))
    with pytest.raises(ConfigError, match="low must be below high"):
        run(tmp_path / "x", spec=TrainSpec("expert", {"hold": (1, 0.5)}, {2: (("expert",),)}))
    with pytest.raises(ConfigError, match="not a heuristic bot"):
        run(tmp_path / "x", spec=TrainSpec("ismcts", {"iterations": (1, 9)}, {2: (("expert",),)}))
    with pytest.raises(ConfigError, match="popsize must be a whole number >= 2"):
        run(tmp_path / "x", popsize=1)
    with pytest.raises(ConfigError, match="generations must be a whole number >= 1"):
        run(tmp_path / "x", generations=0)
    with pytest.raises(ConfigError, match="macao declares no training"):
        train("macao", tmp_path / "x", spec=None, progress=False)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("argv, says", [
    (["train", "weak", "--out", "{tmp}/o"], "unknown target 'weak'"),
    (["train", "strong", "--game", "nogame", "--out", "{tmp}/o"], "unknown game"),
    (["train", "strong", "--out", "{tmp}/full"], "already holds files that are not a cargo_sim"),
    (["train", "strong", "--out", "{tmp}/o", "--popsize", "1"], "popsize must be"),
    (["train", "strong"], "required: --out"),
])
def test_cli_errors_are_one_line(capsys, tmp_path, argv, says):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("not cargo_sim's")
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("cargo-sim: error: ") and says in lines[0], err
    assert not (tmp_path / "o").exists()
    assert (tmp_path / "full" / "mine.txt").read_text() == "not cargo_sim's"
