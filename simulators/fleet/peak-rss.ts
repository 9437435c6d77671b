// This process's peak RSS, from the kernel's high-water mark of its own memory (Linux /proc/self/status VmHWM).
// Not resourceUsage().maxRSS: Linux carries a parent's RSS at fork into the child's ru_maxrss across exec, so a
// fleet spawned by a 2 GB parent (the bench, after holding 30,000 mTLS devices) read 2,210 MiB however small it was.
import { readFileSync } from 'node:fs';

/** Peak RSS in bytes: VmHWM where the kernel gives it, else `sampled` (the largest RSS the caller saw) or RSS now. */
export function peakRssBytes(sampled = 0): number {
  const now = process.memoryUsage.rss();
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Math.max(Number(hwm[1]) * 1024, now);
  } catch {
    // Not Linux: what was sampled.
  }
  return Math.max(sampled, now);
}
