// `node --import <this file>` runs the kit's TypeScript sources as they are, with no build step: registers
// typescript-hooks.mjs, and maps error stacks back to the .ts lines. bin/wfmck.mjs and every process the kit forks
// start with it.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./typescript-hooks.mjs', import.meta.url);
