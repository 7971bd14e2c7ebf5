import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { endQuietlyOnBrokenPipe } from '../../../electron/cli/brokenPipe';

function writeError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`write ${code}`), { code });
}

describe('a closed pipe on stdout', () => {
  it('ends the command with code 0 when the reader has gone (EPIPE)', () => {
    const stdout = new EventEmitter();
    const exit = vi.fn();
    endQuietlyOnBrokenPipe(stdout, exit);
    stdout.emit('error', writeError('EPIPE'));
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('lets any other write error surface', () => {
    const stdout = new EventEmitter();
    const exit = vi.fn();
    endQuietlyOnBrokenPipe(stdout, exit);
    expect(() => stdout.emit('error', writeError('ENOSPC'))).toThrow('write ENOSPC');
    expect(exit).not.toHaveBeenCalled();
  });
});
