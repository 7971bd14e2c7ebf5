import { runCli } from '../../electron/cli/main';

export interface CcmemRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one `ccmem` command in this process, as the installed bin would, and keeps what it printed. */
export async function ccmem(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<CcmemRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  return { code, stdout, stderr };
}
