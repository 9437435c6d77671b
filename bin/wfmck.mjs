#!/usr/bin/env node
// Runs the TypeScript sources directly (bin/typescript.mjs), so a clone needs no build step.
try {
  import.meta.resolve('esbuild');
} catch {
  // A fresh clone before `npm ci`: say what fixes it (wfmck doctor says the same once packages are there).
  process.stderr.write("wfmck: its npm packages are not installed; run `npm ci` in the kit's folder first\n");
  process.exit(2);
}
await import('./typescript.mjs');
// A reader that stops early (`wfmck faults --list | head`) closes the pipe: the rest of the output goes nowhere and the
// command ends as it would have (a run still writes its reports), instead of dying on an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = () => true;
  });
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
