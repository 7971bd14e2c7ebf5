import type { ResumeCommands } from './transcriptOutline';

/** Quotes a string for a POSIX shell: single quotes, with embedded ones closed, escaped and reopened. */
export function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A path recorded on Windows (`X:\…` or a UNC share): it needs PowerShell quoting, not POSIX. */
export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

function powerShellQuote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** `claude --resume <id>` (optionally forking) — the session id is a UUID, so it needs no quoting. */
export function claudeResumeCommand(sessionId: string, fork: boolean): string {
  return fork ? `claude --resume ${sessionId} --fork-session` : `claude --resume ${sessionId}`;
}

/** The command with a change to the session's directory first, in the shell that directory's platform uses. */
export function withDirectoryChange(command: string, cwd: string | null): string {
  if (cwd === null) return command;
  return isWindowsPath(cwd) ? `cd ${powerShellQuote(cwd)}; ${command}` : `cd ${posixQuote(cwd)} && ${command}`;
}

/** The commands the viewer offers to resume or fork a session. */
export function resumeCommands(sessionId: string, cwd: string | null): ResumeCommands {
  const resume = claudeResumeCommand(sessionId, false);
  const fork = claudeResumeCommand(sessionId, true);
  return { resume, fork, copyResume: withDirectoryChange(resume, cwd), copyFork: withDirectoryChange(fork, cwd) };
}
