import { describe, expect, it } from 'vitest';
import type { MemoryConflictDetails } from '../../../shared/memory/memoryReview';
import { CodedError, fail, memoryConflictOf } from '../../../shared/result';

const conflict: MemoryConflictDetails = { relativePath: 'a.md', baseHash: 'b'.repeat(64), currentHash: null, currentText: null };

describe('error details typed per code', () => {
  it('reads a memory file’s conflict, with both versions, and nothing from any other error', () => {
    const saved = fail('CONFLICT', 'a.md was deleted since it was opened', conflict);
    const reverted = fail('CONFLICT', 'Refused: a.md changed', {
      conflicts: [{ path: 'a.md', expected: 'c'.repeat(64), current: 'd'.repeat(64), reason: 'changed since' }],
    });
    const locked = fail('LOCK_HELD', 'Claude Code is consolidating this memory', { holderPid: 42 });
    const bare = fail('CONFLICT', 'The job is still running');
    if (saved.ok || reverted.ok || locked.ok || bare.ok) throw new Error('fail() answered ok');
    expect(memoryConflictOf(saved.error)).toEqual(conflict);
    expect(memoryConflictOf(reverted.error)).toBeNull();
    expect(memoryConflictOf(locked.error)).toBeNull();
    expect(memoryConflictOf(bare.error)).toBeNull();
  });

  it('keeps details out of the envelope when an error has none, and carries them from a thrown CodedError', () => {
    const plain = fail('NOT_FOUND', 'No session s-1');
    expect(plain).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'No session s-1' } });
    const thrown = new CodedError('UNSUPPORTED', 'copy the command instead', { command: 'claude --resume s-1' });
    const sent = fail(thrown.code, thrown.message, thrown.details);
    if (sent.ok || sent.error.code !== 'UNSUPPORTED') throw new Error('the code was lost');
    // Checking the code narrows the details to what that code carries: no cast.
    expect(sent.error.details?.command).toBe('claude --resume s-1');
  });
});
