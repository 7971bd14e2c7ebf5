import { describe, expect, it } from 'vitest';
import { isSessionFileName } from '../../../../shared/claude/sessionFiles';
import { isUuid, sessionKeyOf } from '../../../../shared/claude/sessionIds';

describe('session ids', () => {
  it('takes UUIDs in either case and nothing around them', () => {
    expect(isUuid('0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0')).toBe(true);
    expect(isUuid('0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0')).toBe(true);
    expect(isUuid('0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0.jsonl')).toBe(false);
    expect(isUuid('x0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0')).toBe(false);
    expect(isUuid('agent-a1b2c3')).toBe(false);
  });

  it('names a session file by the same pattern', () => {
    expect(isSessionFileName('0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0.jsonl')).toBe(true);
    expect(isSessionFileName('agent-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0.jsonl')).toBe(false);
  });

  it('keys a session by root, project and id, so the same id under two projects stays two sessions', () => {
    const id = '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0';
    expect(sessionKeyOf('/home/a/.claude', '-p', id)).not.toBe(sessionKeyOf('/home/a/.claude', '-q', id));
    expect(sessionKeyOf('/r', 'a', 'b')).toBe('/r\0a\0b');
  });
});
