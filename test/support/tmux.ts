// A real terminal for the kit's own tests: tmux on a socket of the test's own, driven as a person would (type a line,
// wait for a question or a text on the screen). .ci/run installs tmux.
import { spawnSync } from 'node:child_process';

/** A tmux server of this test alone (its own socket), so no one else's sessions are touched. */
export function tmux(socket: string, session: string) {
  const cmd = (...args: string[]) => {
    const r = spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    if (r.error) throw new Error(`tmux: ${r.error.message} (install it: apt-get install -y tmux)`);
    return r.stdout;
  };
  const screen = () => cmd('capture-pane', '-p', '-J', '-t', session, '-S', '-300');
  return {
    /** A session of `width` columns running `command` (a shell line) in `cwd`. */
    start: (cwd: string, command: string) => void cmd('new-session', '-d', '-s', session, '-x', '250', '-y', '60', '-c', cwd, command),
    /** Ends the server and every session of it. */
    stop: () => void cmd('kill-server'),
    screen,
    /** Sends keys as tmux names them (C-c). */
    keys: (...keys: string[]) => void cmd('send-keys', '-t', session, ...keys),
    /** Types a line, as a person would. */
    type: (text: string) => void (text ? cmd('send-keys', '-t', session, '-l', text) : undefined, cmd('send-keys', '-t', session, 'Enter')),
    /** Waits until the line the cursor is on (the question asked) starts with `prefix`, the `nth` time it is asked. */
    async question(prefix: string, nth = 1): Promise<string> {
      const until = Date.now() + 30_000;
      for (;;) {
        const lines = screen()
          .split('\n')
          .filter((l) => l.trim() !== '');
        const last = lines.at(-1) ?? '';
        if (last.startsWith(prefix) && lines.filter((l) => l.startsWith(prefix)).length >= nth) return lines.join('\n');
        if (Date.now() > until) throw new Error(`no question "${prefix}" (#${nth}) on the terminal:\n${lines.join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async text(re: RegExp): Promise<string> {
      const until = Date.now() + 30_000;
      for (;;) {
        const s = screen();
        if (re.test(s)) return s;
        if (Date.now() > until) throw new Error(`no ${re} on the terminal:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
