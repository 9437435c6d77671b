// Node's arguments that make a child process run the kit's TypeScript (bin/typescript.mjs): by absolute URL, so the
// child finds it whatever its working directory. Given as execArgv, not NODE_OPTIONS, so that the parent's own flags
// (--cpu-prof, --inspect) stay its own and a hook's processes never inherit it.
export function typescriptLoaderArgs(): string[] {
  return ['--import', new URL('../../bin/typescript.mjs', import.meta.url).href];
}
