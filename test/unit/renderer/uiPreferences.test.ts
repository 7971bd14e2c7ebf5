import { describe, expect, it } from 'vitest';
import { resolveTheme, sanitizePreferences } from '../../../renderer/src/stores/uiPreferences';

describe('UI preferences read back from local storage', () => {
  it('keeps each valid field and drops each invalid one on its own', () => {
    expect(sanitizePreferences({ theme: 'dark', sidebarCollapsed: true, costDisplay: 'tokens-only' })).toEqual({
      theme: 'dark',
      sidebarCollapsed: true,
      costDisplay: 'tokens-only',
    });
    expect(sanitizePreferences({ theme: 'sepia', sidebarCollapsed: 'yes', costDisplay: 'api-prices', extra: 1 })).toEqual({
      costDisplay: 'api-prices',
    });
    expect(sanitizePreferences(null)).toEqual({});
    expect(sanitizePreferences('dark')).toEqual({});
  });
});

describe('the theme shown', () => {
  it('follows the system unless light or dark was chosen', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});
