// Where Playwright Test's CLI lives, for the commands that run it as a child (`run`, `faults`, `merge-reports`).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function playwrightCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js');
}
