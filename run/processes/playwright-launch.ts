// How the commands that run Playwright Test as a child (`run`, `faults`, `merge-reports`) start it.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function playwrightCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js');
}

/**
 * Node's arguments for Playwright's CLI: tsx's loader first. Playwright transforms TypeScript only outside
 * node_modules, so an installed kit (node_modules/wfmck/playwright.config.ts) needs tsx to load at all; its workers
 * inherit the flag (Playwright forks them with the runner's execArgv). In a clone Playwright's own transform still
 * loads the kit's files (it short-circuits the loader chain); tsx then serves only what Playwright leaves alone.
 */
export function playwrightNodeArgs(): string[] {
  return ['--import', import.meta.resolve('tsx'), playwrightCli()];
}
