/**
 * Project slugs of POSIX paths start with '-' (`-home-me-app`), which parseArgs would take for an option:
 * `--project -home-me-app` is rewritten to `--project=-home-me-app` for each of the given value flags.
 */
export function bindOptionValues(argv: readonly string[], valueFlags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (valueFlags.includes(argv[i]) && i + 1 < argv.length) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}
