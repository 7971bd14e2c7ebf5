import { describe, expect, it } from 'vitest';
import { ANY_SCOPE, inSearchScope } from '../../../../shared/model/search';

const file = { kind: 'transcript' as const, configRoot: '/root', slug: 'shop', mtimeMs: Date.parse('2026-05-04T12:00:00.000Z') };

describe('the scope of a search', () => {
  it('lets every file through when nothing narrows it', () => {
    expect(inSearchScope(file, ANY_SCOPE)).toBe(true);
  });

  it('narrows by kind, project (root and folder both) and the time the file last changed', () => {
    expect(inSearchScope(file, { ...ANY_SCOPE, kinds: ['memory'] })).toBe(false);
    expect(inSearchScope(file, { ...ANY_SCOPE, kinds: ['memory', 'transcript'] })).toBe(true);
    expect(inSearchScope(file, { ...ANY_SCOPE, projects: [{ configRoot: '/root', slug: 'shop' }] })).toBe(true);
    expect(inSearchScope(file, { ...ANY_SCOPE, projects: [{ configRoot: '/other', slug: 'shop' }] })).toBe(false);
    expect(inSearchScope(file, { ...ANY_SCOPE, projects: [] })).toBe(false);
    expect(inSearchScope(file, { ...ANY_SCOPE, changedAfter: '2026-05-04T00:00:00.000Z' })).toBe(true);
    expect(inSearchScope(file, { ...ANY_SCOPE, changedAfter: '2026-05-05T00:00:00.000Z' })).toBe(false);
    expect(inSearchScope(file, { ...ANY_SCOPE, changedBefore: '2026-05-04T12:00:00.000Z' })).toBe(true);
    expect(inSearchScope(file, { ...ANY_SCOPE, changedBefore: '2026-05-03T23:59:59.999Z' })).toBe(false);
  });
});
