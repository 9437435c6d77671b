// How the commands that run Playwright Test as a child (`run`, `faults`, `merge-reports`) start it.
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typescriptLoaderArgs } from './typescript-loader.ts';

export function playwrightCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js');
}

/**
 * Node's arguments for Playwright's CLI. Playwright transforms TypeScript only outside node_modules (its
 * belongsToNodeModules), so an installed kit (node_modules/wfmck/playwright.config.ts) needs the kit's own loader first
 * to load at all; its workers inherit the flag (Playwright forks them with the runner's execArgv). In a clone
 * Playwright's own transform loads every kit file, and a second set of hooks would only cost each process (the runner
 * and each worker) CPU: a fault-set child run starts three or more of them.
 */
export function playwrightNodeArgs(): string[] {
  const installed = fileURLToPath(import.meta.url).includes(`${sep}node_modules${sep}`);
  return installed ? [...typescriptLoaderArgs(), playwrightCli()] : [playwrightCli()];
}
