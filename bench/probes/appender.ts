import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

/** What the append probe asks for: one more turn line in the target transcript, as Claude Code writes it. */
export interface AppendRequest {
  readonly path: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly index: number;
}

export interface AppendDone {
  /** Wall-clock time (ms since the epoch, sub-millisecond) just before the write. */
  readonly writtenAtMs: number;
}

let parentUuid: string | null = null;

/** A 2.1-era user prompt line. */
function promptLine(request: AppendRequest): string {
  const uuid = randomUUID();
  const line = JSON.stringify({
    parentUuid,
    isSidechain: false,
    promptId: randomUUID(),
    type: 'user',
    message: { role: 'user', content: `Appended prompt ${request.index}: check the live update path` },
    uuid,
    timestamp: new Date().toISOString(),
    permissionMode: 'default',
    userType: 'external',
    entrypoint: 'cli',
    cwd: request.cwd,
    sessionId: request.sessionId,
    version: '2.1.128',
    gitBranch: 'main',
  });
  parentUuid = uuid;
  return `${line}\n`;
}

// A separate process stands in for Claude Code: the engine must notice a write it did not make.
process.on('message', (request: AppendRequest) => {
  const line = promptLine(request);
  const writtenAtMs = performance.timeOrigin + performance.now();
  appendFileSync(request.path, line);
  process.send?.({ writtenAtMs } satisfies AppendDone);
});
