// Playwright's listing of every suite, each persona's (`test --list --reporter=json`, WFMCK_LIST_ALL): no test runs
// and nothing is started. `wfmck faults` names the checks no fault proves from it, `wfmck coverage` its whole list.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightNodeArgs } from '../../run/processes/playwright-launch.ts';
import type { PlaywrightListing } from './checked.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The listing, or undefined when Playwright printed no JSON; `out` is the folder Playwright's config is given. */
export async function suiteListing(out: string): Promise<PlaywrightListing | undefined> {
  const env: NodeJS.ProcessEnv = { ...process.env, WFMCK_OUT: out, WFMCK_LIST_ALL: '1' };
  // A run's context would narrow the suites to its persona's.
  delete env.WFMCK_CONTEXT;
  const child = spawn(
    process.execPath,
    [...playwrightNodeArgs(), 'test', '--list', '--reporter=json', '--config', join(root, 'playwright.config.ts')],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
  await new Promise<void>((res) => child.once('close', () => res()));
  try {
    return JSON.parse(text) as PlaywrightListing;
  } catch {
    return undefined;
  }
}
