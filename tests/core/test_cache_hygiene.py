"""The numba cache folder: the library deletes only what it created, and never
uses a folder other local users could write to."""
import os
import shutil
import subprocess
import sys
import time

from cargo_sim.core import cache as _cache


def _import_with(env_extra, tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "CARGO_SIM_CACHE_ROOT", "XDG_CACHE_HOME")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", "import cargo_sim.core.cache as c; print(c.CACHE_DIR)"],
                          env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)


def _fake_version(base, name, age):
    d = base / name
    d.mkdir(parents=True)
    (d / _cache.MARKER).write_text(_cache.marker_text(name))
    (d / "kernel.nbi").write_text("x")
    t = time.time() - age
    os.utime(d / _cache.MARKER, (t, t))
    return d


def test_import_keeps_foreign_folders_and_prunes_only_its_own(tmp_path):
    root = tmp_path / "root"
    foreign16 = root / "experiment_run_7"          # 16 characters, like a version hash
    foreign_any = root / "my data"
    for d in (foreign16, foreign_any):
        d.mkdir(parents=True)
        (d / "results.csv").write_text("precious")
    ours = root / _cache.SUBFOLDER
    # inside our own subfolder: unmarked or wrongly marked folders are not ours either
    unmarked = ours / "0123456789abcdef"
    unmarked.mkdir(parents=True)
    (unmarked / "f").write_text("keep")
    wrong = ours / "fedcba9876543210"
    wrong.mkdir()
    (wrong / _cache.MARKER).write_text(_cache.marker_text("0000000000000000"))
    olds = [_fake_version(ours, f"{i:016x}", age=1000 * (i + 1)) for i in range(5)]
    # start from this process's compiled kernels: the import then loads instead of compiling
    folder = ours / _cache.outside_folder_name()
    shutil.copytree(_cache.CACHE_DIR, folder)
    (folder / _cache.MARKER).unlink()

    proc = _import_with({"NUMBA_CACHE_DIR": str(root)}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(folder)
    assert (folder / _cache.MARKER).read_text() == _cache.marker_text(folder.name)
    for d in (foreign16, foreign_any):
        assert (d / "results.csv").read_text() == "precious"
    assert (unmarked / "f").exists() and wrong.exists()
    # the current version plus the 3 most recently used old ones stay
    assert [d.exists() for d in olds] == [True, True, True, False, False]


def test_unwritable_home_cache_falls_back_to_private_per_user_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("")                       # mkdir under a file fails, even for root
    monkeypatch.setattr(_cache.tempfile, "tempdir", str(tmp_path))
    env = {"XDG_CACHE_HOME": str(blocker)}
    folder = _cache.cache_folder(env)
    private = tmp_path / f"cargo_sim-{os.getuid()}"
    assert folder == private / _cache.SUBFOLDER / _cache.outside_folder_name()
    st = os.lstat(private)
    assert st.st_uid == os.getuid() and st.st_mode & 0o777 == 0o700


def test_planted_shared_fallback_folder_is_refused(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("")
    monkeypatch.setattr(_cache.tempfile, "tempdir", str(tmp_path))
    private = tmp_path / f"cargo_sim-{os.getuid()}"
    private.mkdir()
    private.chmod(0o777)                          # as another user would leave it
    folder = _cache.cache_folder({"XDG_CACHE_HOME": str(blocker)})
    assert private not in folder.parents
    assert folder.name.startswith("cargo_sim-nocache-") and folder.stat().st_mode & 0o077 == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "warning: no safe cache folder" in err
    # a symlink in its place (pointing anywhere) is refused the same way
    private.rmdir()
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o700)
    private.symlink_to(target)
    assert not _cache.private_dir(private)
