import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledScanWorkerScript, SCAN_WORKER_FILE } from '../../../../electron/core/catalog/scanWorkerScript';

describe('bundledScanWorkerScript', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'ccmem-worker-script-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  function place(dir: string): string {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, SCAN_WORKER_FILE), '');
    return join(dir, SCAN_WORKER_FILE);
  }

  it('finds the worker beside the running bundle (out/main or out/cli next to out/worker)', () => {
    const script = place(join(tmp, 'out', 'worker'));
    expect(bundledScanWorkerScript(join(tmp, 'out', 'main'))).toBe(script);
    expect(bundledScanWorkerScript(join(tmp, 'out', 'cli'))).toBe(script);
  });

  it('takes the unpacked copy when the bundle runs from an asar archive', () => {
    const script = place(join(tmp, 'resources', 'app.asar.unpacked', 'out', 'worker'));
    expect(bundledScanWorkerScript(join(tmp, 'resources', 'app.asar', 'out', 'main'))).toBe(script);
  });

  it('is null when the engine runs from its sources, which have no built worker beside them', () => {
    expect(bundledScanWorkerScript(join(tmp, 'electron', 'cli'))).toBeNull();
  });
});
