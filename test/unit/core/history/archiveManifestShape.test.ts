import { describe, expect, it } from 'vitest';
import { isManifestBody } from '../../../../electron/core/history/archive/archiveManifestShape';

type Body = { files: Record<string, unknown>[]; backups: Record<string, unknown>[]; released: Record<string, unknown>[] } & Record<
  string,
  unknown
>;

/** A manifest body as `writeManifest` saves it: one sub-agent transcript, one memory backup, one released file. */
function validBody(): Body {
  return {
    files: [
      {
        path: '/home/u/.claude/projects/-p/s1/subagents/agent-a1.jsonl',
        configRoot: '/home/u/.claude',
        slug: '-p',
        sessionId: 's1',
        agentId: 'a1',
        layout: 'subagents-folder',
        dataFile: '0123456789abcdef01234567.0.ccar',
        bytes: 120,
        compressedBytes: 80,
        frames: [[0, 40, 120, 40, 123456]],
        headStamp: `120:${'A'.repeat(43)}`,
        tail: '7d0a',
        lineStart: 60,
        source: { fileId: '2049:77', size: 120, mtimeNs: '1700000000000000000', mtimeMs: 1700000000000.5 },
        meta: { agentType: 'Explore', description: null, toolUseId: 'toolu_1', parentAgentId: null, spawnDepth: 1 },
        firstArchivedAt: '2026-11-01T00:00:00.000Z',
        lastArchivedAt: '2026-11-02T00:00:00.000Z',
        goneSince: null,
        rewrites: 0,
      },
    ],
    backups: [
      {
        configRoot: '/home/u/.claude',
        sessionId: 's1',
        backupFileName: 'abc@v2',
        trackedPath: '/home/u/.claude/projects/-p/memory/notes.md',
        dataFile: '89abcdef0123456789abcdef.ccar',
        bytes: 10,
        compressedBytes: 12,
        frame: [0, 0, 10, 12, 99],
        archivedAt: '2026-11-02T00:00:00.000Z',
      },
    ],
    released: [{ path: '/home/u/.claude/projects/-p/old.jsonl', mtimeMs: 1.5, releasedAt: '2026-11-03T00:00:00.000Z' }],
  };
}

const file = (body: Body) => body.files[0];

describe('isManifestBody', () => {
  it('takes what the archive writes, with first bytes as a stamp or, as older manifests kept them, as hex', () => {
    expect(isManifestBody(validBody())).toBe(true);
    const older = validBody();
    delete file(older).headStamp;
    file(older).head = '7b22';
    expect(isManifestBody(older)).toBe(true);
    const plain = validBody();
    file(plain).meta = null;
    file(plain).agentId = null;
    file(plain).layout = 'session';
    expect(isManifestBody(plain)).toBe(true);
  });

  it.each<[string, (body: Body) => void]>([
    ['a key it does not write', (body) => (file(body).note = 'x')],
    ['a missing field', (body) => delete file(body).tail],
    ['a missing meta field', (body) => delete (file(body).meta as Record<string, unknown>).spawnDepth],
    ['an empty path', (body) => (file(body).path = '')],
    ['an unknown layout', (body) => (file(body).layout = 'inline')],
    ['a data file name of a backup', (body) => (file(body).dataFile = '0123456789abcdef01234567.ccar')],
    ['a frame of four numbers', (body) => (file(body).frames = [[0, 40, 120, 40]])],
    ['a negative frame number', (body) => (file(body).frames = [[0, 40, 120, 40, -1]])],
    ['a fractional byte count', (body) => (file(body).bytes = 1.5)],
    ['a byte count as text', (body) => (file(body).source = { ...(file(body).source as object), size: '120' })],
    ['a malformed head stamp', (body) => (file(body).headStamp = '120:short')],
    ['hex of an odd length', (body) => (file(body).head = '7b2')],
    ['a spawn depth of 0', (body) => ((file(body).meta as Record<string, unknown>).spawnDepth = 0)],
    ['a time that is not text', (body) => (file(body).goneSince = 5)],
    ['a backup in a transcript data file', (body) => (body.backups[0].dataFile = '89abcdef0123456789abcdef.1.ccar')],
    ['a released entry with more keys', (body) => (body.released[0].size = 1)],
    ['a top-level key it does not write', (body) => (body.extra = [])],
    ['files that are not a list', (body) => (body.files = {} as unknown as Record<string, unknown>[])],
  ])('refuses a manifest with %s', (_, damage) => {
    const body = validBody();
    damage(body);
    expect(isManifestBody(body)).toBe(false);
  });

  it('refuses what is not an object', () => {
    for (const value of [null, [], 'manifest', 42]) expect(isManifestBody(value)).toBe(false);
  });
});
