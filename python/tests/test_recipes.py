"""The cluster recipes of recipes/, each run from its own file as its scheduler would run it,
with sudoku-batch on the PATH and a small mixed corpus as ``corpus.txt``: the merged output
must be the rows of one run over the whole corpus (but ``time_ns``).

- Slurm: bash runs ``slurm.sh`` once per index of its ``#SBATCH --array`` (a comment to bash),
  with the variables Slurm sets for an array task, then ``slurm-merge.sh``.
- Kubernetes: the manifests are read; each completion index's command runs with the
  environment the Job controller gives its pod and ``$(NAME)`` replaced as the kubelet does,
  the volume being the working directory; then the merge Job's command.
- GNU parallel: ``parallel.sh`` runs as it is, with a stand-in for ``parallel`` when GNU
  parallel is not installed.

(The Dask recipe of python/README.md has its own test, test_dask.py.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Mapping

import pyarrow as pa
import pytest

from conftest import REPO, SAMPLE, assert_same_rows, cli_path, cli_rows, csv_rows, mixed_records

RECIPES = REPO / "recipes"


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A directory holding ``corpus.txt``: comments, an empty line, puzzles of the sample,
    and records of every kind (invalid ones too, so that some parts exit 1)."""
    sample = SAMPLE.read_bytes().splitlines()[:90]
    lines = [*sample[:50], b"", *mixed_records(n=20, seed=3), *sample[50:]]
    (tmp_path / "corpus.txt").write_bytes(b"\n".join(lines) + b"\n")
    return tmp_path


# A stand-in for GNU parallel's `parallel COMMAND... ::: VALUE...`: the command's words joined
# by spaces, `{}` replaced by each value shell-quoted (or the value appended), each line run by
# the shell, all at once; the exit status is the number of lines that failed.
FAKE_PARALLEL = """\
import shlex, subprocess, sys
args = sys.argv[1:]
if ":::" not in args or args[0].startswith("-"):
    sys.exit("this stand-in for GNU parallel takes no options, only COMMAND ::: VALUES")
command, values = " ".join(args[: args.index(":::")]), args[args.index(":::") + 1 :]
def line(value):
    quoted = shlex.quote(value)
    return command.replace("{}", quoted) if "{}" in command else f"{command} {quoted}"
jobs = [subprocess.Popen(["sh", "-c", line(v)]) for v in values]
sys.exit(min(sum(job.wait() != 0 for job in jobs), 101))
"""


def gnu_parallel() -> bool:
    """Whether the `parallel` on the PATH is GNU parallel (moreutils has another)."""
    if not shutil.which("parallel"):
        return False
    done = subprocess.run(["parallel", "--version"], capture_output=True, text=True, check=False)
    return "GNU parallel" in done.stdout


@pytest.fixture
def env(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, str]:
    """The environment of a recipe: this tree's sudoku-batch first on the PATH (and a
    stand-in for GNU parallel if there is none), no scheduler's variables."""
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "sudoku-batch").symlink_to(cli_path())
    if not gnu_parallel():
        fake = bin_dir / "parallel"
        fake.write_text(f"#!{sys.executable}\n{FAKE_PARALLEL}")
        fake.chmod(0o755)
    out = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("SLURM_") and k != "JOB_COMPLETION_INDEX"
    }
    out["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    return out


def start(argv: List[str], cwd: Path, env: Mapping[str, str], log: Path) -> subprocess.Popen:
    """Starts ``argv`` in ``cwd``, its stdout and stderr going to ``log``."""
    with open(log, "wb") as out:
        return subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=out)


def finish(proc: subprocess.Popen, log: Path) -> None:
    """Waits for ``proc``, which must exit 0."""
    code = proc.wait(timeout=300)
    assert code == 0, f"{proc.args} exited {code}:\n{log.read_text(errors='replace')}"


def run(argv: List[str], cwd: Path, env: Mapping[str, str], log: Path) -> None:
    """Runs ``argv`` in ``cwd`` to the end, its stdout and stderr going to ``log``."""
    finish(start(argv, cwd, env, log), log)


def assert_merged_is_whole(merged: Path, command: str, corpus: Path) -> None:
    """``merged`` holds the rows of one ``sudoku-batch COMMAND CORPUS`` run."""
    expected = cli_rows([command, str(corpus)])
    assert_same_rows(pa.table(csv_rows(merged.read_text())), expected)
    assert "invalid" in expected["status"], "the corpus has invalid records"


# --- Slurm ----------------------------------------------------------------------------------


def sbatch_options(script: Path) -> Dict[str, str]:
    """The ``#SBATCH --name=value`` options of ``script``, as sbatch reads them: up to the
    first line that is not a comment or blank."""
    options = {}
    for line in script.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            break
        m = re.match(r"#SBATCH\s+--([\w-]+)(?:=(\S+))?", line)
        if m:
            options[m[1]] = m[2] or ""
    return options


def slurm_file_name(pattern: str, job: int, task: int) -> str:
    """An ``--output`` pattern with its job (%A, %j) and task (%a) numbers filled in."""
    return pattern.replace("%A", str(job)).replace("%a", str(task)).replace("%j", str(job))


def test_slurm_array_and_merge_give_one_runs_rows(workdir, env):
    script, merge = RECIPES / "slurm.sh", RECIPES / "slurm-merge.sh"
    assert script.read_text().startswith("#!/bin/bash\n")
    # The submission the header tells: the merge after every task has succeeded.
    assert re.search(r"sbatch --dependency=afterok:\S+ slurm-merge\.sh", script.read_text())
    options = sbatch_options(script)
    first, last = map(int, re.fullmatch(r"(\d+)-(\d+)(?:%\d+)?", options["array"]).groups())
    job = 4242
    tasks = []
    for task in range(first, last + 1):
        task_env = {
            **env,
            "SLURM_JOB_ID": str(job + 1 + task),
            "SLURM_ARRAY_JOB_ID": str(job),
            "SLURM_ARRAY_TASK_ID": str(task),
            "SLURM_ARRAY_TASK_COUNT": str(last - first + 1),
            "SLURM_ARRAY_TASK_MIN": str(first),
            "SLURM_ARRAY_TASK_MAX": str(last),
            "SLURM_SUBMIT_DIR": str(workdir),
        }
        if "cpus-per-task" in options:
            task_env["SLURM_CPUS_PER_TASK"] = options["cpus-per-task"]
        log = workdir / slurm_file_name(options.get("output", "slurm-%A_%a.out"), job, task)
        tasks.append((task_env, log))
    # Slurm runs the tasks at once, each in the submission directory.
    procs = [(start(["bash", str(script)], workdir, e, log), log) for e, log in tasks]
    for proc, log in procs:
        finish(proc, log)
    assert len(list(workdir.glob("part-*.csv"))) == last - first + 1

    merge_options = sbatch_options(merge)
    merge_job = job + 100
    merge_env = {**env, "SLURM_JOB_ID": str(merge_job), "SLURM_SUBMIT_DIR": str(workdir)}
    log = workdir / slurm_file_name(merge_options.get("output", "slurm-%j.out"), merge_job, 0)
    run(["bash", str(merge)], workdir, merge_env, log)
    assert_merged_is_whole(workdir / "graded.csv", "grade", workdir / "corpus.txt")


# --- Kubernetes -----------------------------------------------------------------------------

INDEX_FIELDS = {
    f"metadata.{where}['batch.kubernetes.io/job-completion-index']"
    for where in ("annotations", "labels")
}


def kubelet_expand(text: str, env: Mapping[str, str]) -> str:
    """``text`` with each ``$(NAME)`` of a variable in ``env`` replaced by its value and ``$$``
    by ``$``, as the kubelet treats command, args and env values; any other ``$`` stays."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("$$", i):
            out.append("$")
            i += 2
            continue
        if text.startswith("$(", i) and ")" in text[i:]:
            end = text.index(")", i)
            out.append(env.get(text[i + 2 : end], text[i : end + 1]))
            i = end + 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def pod_env(container: dict, index: int | None) -> Dict[str, str]:
    """The environment of ``container`` in the pod of completion ``index``: its own ``env``,
    then the JOB_COMPLETION_INDEX that the Job controller adds unless it is there."""
    env: Dict[str, str] = {}
    for var in container.get("env", []):
        if "value" in var:
            env[var["name"]] = kubelet_expand(var["value"], env)
        elif var.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") in INDEX_FIELDS:
            assert index is not None, f"{var['name']}: not an Indexed Job"
            env[var["name"]] = str(index)
        else:
            pytest.fail(f"env {var['name']}: not simulated")
    if index is not None:
        env.setdefault("JOB_COMPLETION_INDEX", str(index))
    return env


def container_of(job: dict) -> tuple[dict, str, str]:
    """The one container of ``job``'s pods, with the mount path and the claim of its volume."""
    pod = job["spec"]["template"]["spec"]
    assert pod["restartPolicy"] in ("Never", "OnFailure")
    [container] = pod["containers"]
    [mount] = container["volumeMounts"]
    [volume] = [v for v in pod["volumes"] if v["name"] == mount["name"]]
    return container, mount["mountPath"], volume["persistentVolumeClaim"]["claimName"]


def run_container(
    container: dict, mount: str, index: int | None, workdir: Path, env: Mapping[str, str]
) -> None:
    """Runs the command and args of ``container`` with the volume at ``mount`` in ``workdir``."""
    variables = pod_env(container, index)
    argv = [kubelet_expand(a, variables) for a in container["command"] + container.get("args", [])]
    argv = [a.replace(mount.rstrip("/") + "/", f"{workdir}/") for a in argv]
    log = workdir / f"{container['name']}-{index}.log"
    run(argv, workdir, {**env, **variables}, log)


def test_kubernetes_indexed_job_and_merge_give_one_runs_rows(workdir, env):
    yaml = pytest.importorskip("yaml")
    job = yaml.safe_load((RECIPES / "kubernetes-job.yaml").read_text())
    merge = yaml.safe_load((RECIPES / "kubernetes-merge.yaml").read_text())
    assert (job["apiVersion"], job["kind"]) == ("batch/v1", "Job")
    assert (merge["apiVersion"], merge["kind"]) == ("batch/v1", "Job")
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    completions = spec["completions"]
    assert 1 <= spec.get("parallelism", 1) <= completions
    container, mount, claim = container_of(job)
    command = " ".join(container["command"] + container.get("args", []))
    assert re.search(rf"--shard auto --shards {completions}\b", command), command
    merger, merge_mount, merge_claim = container_of(merge)
    assert merge_claim == claim
    assert merge.get("spec", {}).get("completions", 1) == 1

    for index in range(completions):
        run_container(container, mount, index, workdir, env)
    assert len(list(workdir.glob("part-*.csv"))) == completions
    run_container(merger, merge_mount, None, workdir, env)
    assert_merged_is_whole(workdir / "graded.csv", "grade", workdir / "corpus.txt")


# --- GNU parallel ---------------------------------------------------------------------------


def test_gnu_parallel_and_merge_give_one_runs_rows(workdir, env):
    run(["bash", str(RECIPES / "parallel.sh")], workdir, env, workdir / "parallel.log")
    assert len(list(workdir.glob("part-*.csv"))) > 1
    assert_merged_is_whole(workdir / "solved.csv", "solve", workdir / "corpus.txt")
