import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettingsFile, validateMemoryDirectory } from '../../../../electron/core/layout/settingsFiles';

let tmp: string;
beforeAll(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-settings-')));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function settings(name: string, content: string): Promise<string> {
  const path = join(tmp, name);
  await writeFile(path, content);
  return path;
}

describe('readSettingsFile', () => {
  it('a missing file is no problem', async () => {
    expect(await readSettingsFile(join(tmp, 'missing.json'))).toEqual({ values: null, warning: null });
  });

  it('reads a JSON object (with or without BOM)', async () => {
    expect(await readSettingsFile(await settings('ok.json', '{"autoMemoryDirectory":"/x/y","model":"opus"}'))).toEqual({
      values: { autoMemoryDirectory: '/x/y', model: 'opus' },
      warning: null,
    });
    expect((await readSettingsFile(await settings('bom.json', '\uFEFF{"a":1}'))).values).toEqual({ a: 1 });
  });

  it.each([
    ['not JSON', '{ "a": 1, // comment\n}'],
    ['truncated', '{"a":'],
    ['an array', '[1,2]'],
    ['a string', '"hello"'],
    ['null', 'null'],
    ['empty', ''],
  ])('%s → settings-invalid-json warning on that file', async (_label, content) => {
    const path = await settings(`bad-${_label.replace(/\W/g, '')}.json`, content);
    const read = await readSettingsFile(path);
    expect(read.values).toBeNull();
    expect(read.warning).toMatchObject({ code: 'settings-invalid-json', path });
  });

  it('a folder in place of the file → unreadable warning', async () => {
    const path = join(tmp, 'folder.json');
    await mkdir(path);
    expect((await readSettingsFile(path)).warning).toMatchObject({ code: 'unreadable', path });
  });

  it('a file over 1 MiB is refused → unreadable warning', async () => {
    const path = await settings('huge.json', `{"a":"${'x'.repeat(1024 * 1024)}"}`);
    expect((await readSettingsFile(path)).warning).toMatchObject({ code: 'unreadable', path });
  });
});

describe('validateMemoryDirectory', () => {
  const home = '/home/dev';
  it.each([
    ['/abs/memory', '/abs/memory'],
    ['/abs/memory/', '/abs/memory'],
    ['  /abs/memory  ', '/abs/memory'],
    ['/abs/./x/../memory', '/abs/memory'],
    ['~/notes/memory', '/home/dev/notes/memory'],
    ['~\\notes', '/home/dev/notes'],
    ['~/a/../b', '/home/dev/b'],
    ['/tmp/cafe\u0301', '/tmp/caf\u00e9'],
  ])('%j → %j', (raw, expected) => {
    expect(validateMemoryDirectory(raw, home)).toBe(expected);
  });

  it.each([
    ['relative path', 'memory'],
    ['dot-relative', './memory'],
    ['empty', ''],
    ['blank', '   '],
    ['bare ~', '~'],
    ['~/ alone', '~/'],
    ['~/.. escape', '~/..'],
    ['~/../x escape', '~/../x'],
    ['~/a/../../x escape', '~/a/../../x'],
    ['root /', '/'],
    ['UNC share', '\\\\server\\share'],
    ['//server/share', '//server/share'],
    ['drive only', 'C:'],
    ['NUL byte', '/abs/mem\0ory'],
    ['number', 42],
    ['null', null],
    ['object', { path: '/x' }],
    ['array', ['/x']],
  ])('%s is rejected', (_label, raw) => {
    expect(validateMemoryDirectory(raw, home)).toBeNull();
  });
});
