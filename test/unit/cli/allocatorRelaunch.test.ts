import { describe, expect, it } from 'vitest';
import {
  MMAP_THRESHOLD_VARIABLE,
  RELAUNCHED_BY_VARIABLE,
  shouldRelaunchForAllocator,
  stopWhenParentIsGone,
} from '../../../electron/cli/allocatorRelaunch';

const ENTRY = '/usr/lib/node_modules/claude-memory-manager/out/cli/index.js';

describe('shouldRelaunchForAllocator', () => {
  it('starts again only on Linux, from the installed command, when no threshold was chosen', () => {
    expect(shouldRelaunchForAllocator({}, ENTRY, 'linux')).toBe(true);
    expect(shouldRelaunchForAllocator({}, ENTRY, 'darwin')).toBe(false);
    expect(shouldRelaunchForAllocator({}, ENTRY, 'win32')).toBe(false);
    // A test or another program calling the command in its own process.
    expect(shouldRelaunchForAllocator({}, undefined, 'linux')).toBe(false);
    // The user's own threshold, whatever it is, and the relaunched process itself.
    expect(shouldRelaunchForAllocator({ [MMAP_THRESHOLD_VARIABLE]: '1048576' }, ENTRY, 'linux')).toBe(false);
    expect(shouldRelaunchForAllocator({ [RELAUNCHED_BY_VARIABLE]: '4242' }, ENTRY, 'linux')).toBe(false);
  });
});

describe('stopWhenParentIsGone', () => {
  it('tells a relaunched server once the process that started it is no longer its parent', async () => {
    let orphaned = 0;
    // This process's parent is not pid 1 here, so a server "started by" pid 1 finds its parent gone at the first look.
    expect(process.ppid).not.toBe(1);
    stopWhenParentIsGone({ [RELAUNCHED_BY_VARIABLE]: '1' }, () => orphaned++);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(orphaned).toBe(1);
  });

  it('keeps quiet while the parent is there, and for a server that was not relaunched', async () => {
    let orphaned = 0;
    const stop = stopWhenParentIsGone({ [RELAUNCHED_BY_VARIABLE]: String(process.ppid) }, () => orphaned++);
    const none = stopWhenParentIsGone({}, () => orphaned++);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    stop();
    none();
    expect(orphaned).toBe(0);
  });
});
