import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/changes/HistoryStore';
import { VersionReader } from '../../../../electron/core/history/versionReader';

/** The reader's clock a minute ahead: every file was written long enough before its read to be trusted by its stats. */
const aMinuteAhead = () => Date.now() + 60_000;

describe('VersionReader', () => {
  let dir: string;
  let reader: VersionReader;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ccmem-version-reader-'));
    reader = new VersionReader(new HistoryStore(join(dir, 'history')), aMinuteAhead);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the text of a first read, and for a file unchanged since holds no text but reads it back from the blob', async () => {
    const file = join(dir, 'notes.md');
    await writeFile(file, '# Notes\n\nUse pnpm.\n');
    const first = await reader.read(file);
    expect(first?.text).toBe('# Notes\n\nUse pnpm.\n');

    const again = await reader.read(file);
    expect(again).toEqual({ hash: first?.hash, text: undefined, mtimeMs: first?.mtimeMs, size: first?.size });
    expect(await reader.textOf(again!)).toBe('# Notes\n\nUse pnpm.\n');
  });

  it('reads a file again once it changed, with its new text', async () => {
    const file = join(dir, 'notes.md');
    await writeFile(file, 'one\n');
    const first = await reader.read(file);
    await writeFile(file, 'two, longer\n');
    const changed = await reader.read(file);
    expect(changed?.hash).not.toBe(first?.hash);
    expect(changed?.text).toBe('two, longer\n');
  });

  it('has no text for a version that is not UTF-8, read or read back', async () => {
    const file = join(dir, 'blob.md');
    await writeFile(file, new Uint8Array([0x23, 0x00, 0xff, 0xfe]));
    const first = await reader.read(file);
    expect(first?.text).toBeNull();
    const again = await reader.read(file);
    expect(again?.text).toBeUndefined();
    expect(await reader.textOf(again!)).toBeNull();
  });

  it('gives the text it was handed without reading a blob', async () => {
    expect(await reader.textOf({ hash: 'not-a-stored-hash', text: 'as read' })).toBe('as read');
  });
});
