// The shell of a CI definition run as its CI would, on this machine: action.yml's composite steps (each `run:` with
// `bash --noprofile --norc -eo pipefail`, `${{ }}` filled from the inputs, github.action_path and earlier steps'
// outputs, `uses:` steps recorded and not run), and a GitLab job's script lines in one shell that stops at the first
// failure. So the examples cannot rot: a step that no longer works fails a test.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionRun {
  /** The job's exit code: the first failed step's, else 0. */
  code: number;
  /** The `uses:` steps that would have run, their `with:` filled in. */
  used: { name: string; uses: string; with: Record<string, string> }[];
  outputs: Record<string, Record<string, string>>;
  log: string;
}

/** Each `${{ expr }}` of the contexts the kit's action uses; any other expression fails the test (it would not run here). */
function fill(text: string, inputs: Record<string, string>, actionPath: string, outputs: ActionRun['outputs']): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) {
      if (!(input[1]! in inputs)) throw new Error(`\${{ ${expr} }}: no such input`);
      return inputs[input[1]!]!;
    }
    if (expr === 'github.action_path') return actionPath;
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output) return outputs[output[1]!]?.[output[2]!] ?? '';
    throw new Error(`\${{ ${expr} }}: not an expression this runner knows`);
  });
}

/** `key=value` lines of a GITHUB_OUTPUT file (the heredoc form is not used by the kit's scripts). */
function readOutputs(file: string): Record<string, string> {
  const text = readFileSync(file, 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

export async function bash(args: string[], cwd: string, env: Record<string, string | undefined>): Promise<{ code: number; log: string }> {
  const child = spawn('bash', args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code: code ?? 128, log };
}

/**
 * Runs the steps of a composite action in `workspace` (GitHub's cwd), with `given` inputs over the declared defaults.
 * A step whose `if:` is not `always()` runs only while every step before it passed, as GitHub does for success().
 */
export async function runAction(
  action: { inputs: Record<string, { default?: string }>; runs: { using: string; steps: ActionStep[] } },
  options: { actionPath: string; workspace: string; given: Record<string, string>; env: Record<string, string | undefined> },
): Promise<ActionRun> {
  if (options.given && Object.keys(options.given).some((k) => !(k in action.inputs)))
    throw new Error('an input the action does not declare');
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, options.given[k] ?? v.default ?? '']));
  const run: ActionRun = { code: 0, used: [], outputs: {}, log: '' };
  const temp = mkdtempSync(join(tmpdir(), 'wfmck-action-steps-'));
  for (const [i, step] of action.runs.steps.entries()) {
    const always = step.if === 'always()';
    if (step.uses) {
      run.used.push({
        name: step.name ?? step.uses,
        uses: step.uses,
        with: Object.fromEntries(
          Object.entries(step.with ?? {}).map(([k, v]) => [k, fill(String(v), inputs, options.actionPath, run.outputs)]),
        ),
      });
      continue;
    }
    if (step.if !== undefined && !always) throw new Error(`step ${step.name}: if: ${step.if} is not a condition this runner knows`);
    if (run.code !== 0 && !always) continue;
    if (step.shell !== 'bash') throw new Error(`step ${step.name}: shell ${step.shell}, not bash`);
    const script = join(temp, `step-${i}.sh`);
    writeFileSync(script, fill(step.run!, inputs, options.actionPath, run.outputs));
    const output = join(temp, `output-${i}`);
    writeFileSync(output, '');
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(String(v), inputs, options.actionPath, run.outputs)]),
    );
    const cwd = resolve(options.workspace, fill(step['working-directory'] ?? '.', inputs, options.actionPath, run.outputs));
    const r = await bash(['--noprofile', '--norc', '-eo', 'pipefail', script], cwd, { ...options.env, ...env, GITHUB_OUTPUT: output });
    run.log += `--- ${step.name} (exit ${r.code})\n${r.log}`;
    if (step.id) run.outputs[step.id] = readOutputs(output);
    if (r.code !== 0 && run.code === 0) run.code = r.code;
  }
  return run;
}

/** A GitLab job's `script:` in one bash that stops at the first failed line, its `variables:` under `overrides`. */
export async function runGitlabJob(
  job: { variables?: Record<string, string>; before_script?: string[]; script: string[] },
  options: { cwd: string; overrides: Record<string, string>; env: Record<string, string | undefined> },
): Promise<{ code: number; log: string }> {
  const lines = [...(job.before_script ?? []), ...job.script];
  const env = { ...options.env, ...job.variables, ...options.overrides };
  return bash(['--noprofile', '--norc', '-eo', 'pipefail', '-c', lines.join('\n')], options.cwd, env);
}
