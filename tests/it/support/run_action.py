"""Run the steps of this repository's composite action.yml as a GitHub
runner would: inputs and contexts are substituted into `env:`,
`working-directory:` and `if:`, `run:` scripts go to
`bash --noprofile --norc -eo pipefail`, a step's `$GITHUB_OUTPUT` becomes
`steps.ID.outputs`, `uses:` steps are recorded with their `with:` (the cache
misses). Usage: run_action.py ACTION_DIR WORKSPACE RUNNER_TEMP JSON_INPUTS
[JSON_EVENT] (the `github.event` of a pull request, say).
Prints each step's output; exits with the first failing step's code."""
import json
import os
import re
import subprocess
import sys

import yaml

action_dir, workspace, runner_temp, given = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
event = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
action = yaml.safe_load(open(os.path.join(action_dir, "action.yml")))
context = {
    "runner.temp": runner_temp,
    "runner.os": "Linux",
    "runner.arch": "X64",
    # Empty outside a pull request, as on a runner.
    "github.event.pull_request.base.sha": event.get("pull_request", {}).get("base", {}).get("sha", ""),
}
outputs = {}


def expr(text):
    def one(m):
        key = m.group(1).strip()
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", key)
        if step:
            return outputs.get(step.group(1), {}).get(step.group(2), "")
        if key not in context:
            sys.exit(f"unsupported expression in action.yml: {key}")
        return context[key]
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))


# Defaults are expressions too (`config-from`); what the workflow gives is not.
inputs = {k: expr(v.get("default", "")) for k, v in action.get("inputs", {}).items()}
inputs.update(given)
context.update({f"inputs.{k}": v for k, v in inputs.items()})


def condition(cond):
    m = re.fullmatch(r"steps\.(\w+)\.outputs\.([\w-]+) != '(\w+)'", cond.strip())
    if not m:
        sys.exit(f"unsupported if: {cond}")
    return outputs.get(m.group(1), {}).get(m.group(2), "") != m.group(3)


base_env = dict(os.environ)
base_env.update({
    "GITHUB_ACTIONS": "true",
    "CI": "true",
    "GITHUB_ACTION_PATH": action_dir,
    "GITHUB_WORKSPACE": workspace,
    "RUNNER_TEMP": runner_temp,
    "GITHUB_STEP_SUMMARY": os.path.join(runner_temp, "step_summary.md"),
})
for step in action["runs"]["steps"]:
    name = step.get("name", step.get("id", "?"))
    if "run" in step and "${{" in step["run"]:
        sys.exit(f"step {name!r}: `${{{{ }}}}` inside run: (script injection)")
    if "if" in step and not condition(step["if"]):
        print(f"--- skip: {name}", flush=True)
        continue
    if "uses" in step:
        given_with = " ".join(f"{k}={expr(v)}" for k, v in step.get("with", {}).items())
        print(f"--- uses: {step['uses']} (cache miss) {given_with}", flush=True)
        outputs[step.get("id", "")] = {"cache-hit": "false"}
        continue
    env = dict(base_env)
    env.update({k: expr(v) for k, v in step.get("env", {}).items()})
    # An absolute directory (`runner.temp`) replaces the workspace.
    cwd = os.path.join(workspace, expr(step.get("working-directory", ".")))
    output_file = os.path.join(runner_temp, f"output-{len(outputs)}")
    open(output_file, "w").close()
    env["GITHUB_OUTPUT"] = output_file
    print(f"--- run: {name}", flush=True)
    assert step.get("shell") == "bash", "composite run steps need shell: bash"
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=cwd, env=env)
    outputs[step.get("id", "")] = dict(
        line.split("=", 1) for line in open(output_file).read().splitlines() if "=" in line
    )
    if done.returncode != 0:
        sys.exit(done.returncode)
