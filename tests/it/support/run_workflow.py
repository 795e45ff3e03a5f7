"""Run the scheduled verify workflow of docs/verify.md as GitHub would, on
this machine: each job in a fresh clone of ORIGIN (what actions/checkout
makes), its `run:` scripts in order under `bash --noprofile --norc -eo
pipefail`, with `${{ }}` expressions and `env:` substituted, GITHUB_OUTPUT
read back for `steps.ID.outputs.KEY`, GITHUB_STEP_SUMMARY a file per job,
upload/download-artifact copying between local directories, and the
`Install urldb` steps skipped (urldb is on PATH). Usage:

  run_workflow.py DOC ORIGIN WORK RUN_ID JSON_ENV_OVERRIDES

Prints each step's output; exits with the first failing job's code."""
import glob
import itertools
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

doc, origin, work, run_id, overrides = sys.argv[1:6]
overrides = json.loads(overrides)
text = open(doc).read()
marker = text.index("<!-- workflow: verify-schedule -->")
block = re.search(r"```yaml\n(.*?)```", text[marker:], re.S)
workflow = yaml.safe_load(block.group(1))
on = workflow.get(True, workflow.get("on"))  # YAML 1.1 reads `on` as true
assert "schedule" in on, "the workflow runs on a schedule"

artifacts = os.path.join(work, "artifacts")
os.makedirs(artifacts, exist_ok=True)
env_global = {k: str(v) for k, v in workflow.get("env", {}).items()}
env_global.update(overrides)


def expr(value, context):
    def one(m):
        key = m.group(1).strip()
        if key not in context:
            sys.exit(f"unsupported expression in the workflow: {key}")
        return context[key]
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


def run_job(name, job, matrix):
    label = name + "".join(f"-{v}" for v in matrix.values())
    runner = os.path.join(work, "runner-" + label)
    workspace = os.path.join(runner, "workspace")
    os.makedirs(runner)
    # actions/checkout: a shallow clone of the commit, `origin` the repository.
    subprocess.run(["git", "clone", "-q", "--depth", "1", "file://" + origin, workspace], check=True)
    summary = os.path.join(runner, "step_summary.md")
    context = {
        "github.run_id": run_id,
        "github.token": "fake-token",
        **{f"matrix.{k}": str(v) for k, v in matrix.items()},
    }
    for step in job["steps"]:
        step_name = expr(step.get("name", step.get("uses", "?")), context)
        if "run" in step and "${{" in step["run"]:
            sys.exit(f"step {step_name!r}: `${{{{ }}}}` inside run: (script injection)")
        if "if" in step:
            sys.exit(f"step {step_name!r}: step-level if: is not supported here")
        uses = step.get("uses", "")
        with_ = {k: expr(v, context) for k, v in step.get("with", {}).items()}
        if uses.startswith("actions/checkout@"):
            continue  # the clone above
        if uses.startswith("actions/upload-artifact@"):
            shutil.copytree(os.path.join(workspace, with_["path"]), os.path.join(artifacts, with_["name"]))
            print(f"--- upload: {with_['name']}", flush=True)
            continue
        if uses.startswith("actions/download-artifact@"):
            for found in sorted(glob.glob(os.path.join(artifacts, with_["pattern"]))):
                shutil.copytree(found, os.path.join(workspace, with_["path"], os.path.basename(found)))
            print(f"--- download: {with_['pattern']}", flush=True)
            continue
        if uses:
            sys.exit(f"unsupported action: {uses}")
        if step_name.startswith("Install urldb"):
            print(f"--- skip: {step_name} (urldb is on PATH)", flush=True)
            continue
        output = os.path.join(runner, "output")
        open(output, "w").close()
        env = dict(os.environ)
        env.update({
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_RUN_ID": run_id,
            "GITHUB_STEP_SUMMARY": summary,
            "GITHUB_OUTPUT": output,
            "GITHUB_WORKSPACE": workspace,
        })
        env.update(env_global)
        env.update({k: expr(v, context) for k, v in job.get("env", {}).items()})
        env.update({k: expr(v, context) for k, v in step.get("env", {}).items()})
        print(f"--- run: {step_name}", flush=True)
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                              cwd=workspace, env=env)
        if done.returncode != 0:
            print(f"--- failed: {step_name} ({done.returncode})", flush=True)
            return done.returncode
        if "id" in step:
            for line in open(output):
                key, _, value = line.rstrip("\n").partition("=")
                context[f"steps.{step['id']}.outputs.{key}"] = value
    return 0


failed = 0
for name, job in workflow["jobs"].items():
    if "needs" in job and job.get("if") != "${{ !cancelled() }}" and failed:
        continue
    matrix = job.get("strategy", {}).get("matrix", {})
    combos = [dict(zip(matrix, values)) for values in itertools.product(*matrix.values())]
    for combo in combos:
        code = run_job(name, job, combo)
        failed = failed or code
sys.exit(failed)
