// Figure 3 from the parent's side: memory-child.ts in a fresh process with --expose-gc, so nothing the other
// figures left behind is counted.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { MemoryChildResult } from './memory-child.ts';
import { typescriptImport } from './wfm-process.ts';

export type MemoryMeasurement = MemoryChildResult;

export function measureMemory(devices: number): Promise<MemoryMeasurement> {
  const child = fork(fileURLToPath(new URL('./memory-child.ts', import.meta.url)), [String(devices)], {
    execArgv: ['--expose-gc', '--max-old-space-size=4096', ...typescriptImport()],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    child.once('message', (m: { type: 'result'; result: MemoryChildResult } | { type: 'failed'; message: string }) => {
      settled = true;
      if (m.type === 'result') resolve(m.result);
      else reject(new Error(`bench: the memory figure failed: ${m.message}`));
    });
    child.once('exit', (code) => settled || reject(new Error(`bench: the memory process exited (${code}) without a result`)));
  });
}
