import { describe, expect, it } from 'vitest';
import { rankEntries, type PaletteEntry } from '../../../renderer/src/shell/commandRanking';

const entry = (id: string, kind: PaletteEntry['kind'], label: string, more: Partial<PaletteEntry> = {}): PaletteEntry => ({
  id,
  kind,
  label,
  run: () => undefined,
  ...more,
});

const entries = [
  entry('page:memory', 'page', 'Memory'),
  entry('page:sessions', 'page', 'Sessions'),
  entry('action:dark', 'action', 'Theme: dark', { keywords: 'mode' }),
  entry('project:shop', 'project', '/home/me/code/webshop'),
  entry('memory:pnpm', 'memory', 'Prefers pnpm', { detail: 'user_prefers_pnpm.md' }),
  entry('session:1', 'session', 'Fix the checkout session bug', { detail: '/home/me/code/webshop', keywords: '1f2e3d' }),
  entry('session:2', 'session', 'Sessions of the week', { detail: '/home/me/notes' }),
];
const ids = (query: string, limit = 10) => rankEntries(entries, query, limit).map((e) => e.id);

describe('ranking what the palette offers', () => {
  it('lists everything in the given order for an empty query, up to the limit', () => {
    expect(ids('')).toEqual(entries.map((e) => e.id));
    expect(ids('  ', 2)).toEqual(['page:memory', 'page:sessions']);
  });

  it('puts a label that starts with the query first, then a word that does, then any match', () => {
    expect(ids('sess')).toEqual(['page:sessions', 'session:2', 'session:1']);
    expect(ids('webshop')).toEqual(['project:shop', 'session:1']);
  });

  it('needs every word, found in the label, the detail or the keywords, ignoring case', () => {
    expect(ids('CHECKOUT webshop')).toEqual(['session:1']);
    expect(ids('1f2e3d')).toEqual(['session:1']);
    expect(ids('dark mode')).toEqual(['action:dark']);
    expect(ids('pnpm.md')).toEqual(['memory:pnpm']);
    expect(ids('nothing like it')).toEqual([]);
  });
});
