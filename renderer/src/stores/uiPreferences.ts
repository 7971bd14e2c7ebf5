export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** Whether to price Claude Code's tokens at the API's list prices: an API key pays them, a subscription does not. */
export const COST_DISPLAYS = ['api-prices', 'tokens-only'] as const;
export type CostDisplay = (typeof COST_DISPLAYS)[number];

export interface UiPreferences {
  readonly theme: ThemeChoice;
  readonly sidebarCollapsed: boolean;
  readonly costDisplay: CostDisplay;
}

export const DEFAULT_PREFERENCES: UiPreferences = { theme: 'system', sidebarCollapsed: false, costDisplay: 'api-prices' };

/** What was stored is untrusted (another version, a hand edit): each field falls back to its default on its own. */
export function sanitizePreferences(stored: unknown): Partial<UiPreferences> {
  if (!stored || typeof stored !== 'object') return {};
  const value = stored as Record<string, unknown>;
  const out: { -readonly [K in keyof UiPreferences]?: UiPreferences[K] } = {};
  if (THEME_CHOICES.includes(value.theme as ThemeChoice)) out.theme = value.theme as ThemeChoice;
  if (typeof value.sidebarCollapsed === 'boolean') out.sidebarCollapsed = value.sidebarCollapsed;
  if (COST_DISPLAYS.includes(value.costDisplay as CostDisplay)) out.costDisplay = value.costDisplay as CostDisplay;
  return out;
}

export type Theme = 'light' | 'dark';

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): Theme {
  if (choice === 'system') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}
