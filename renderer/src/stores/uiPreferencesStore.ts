import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

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

const DEFAULTS: UiPreferences = { theme: 'system', sidebarCollapsed: false, costDisplay: 'api-prices' };

/** What was stored is untrusted (another version, a hand edit): each field falls back to its default on its own. */
function sanitize(stored: unknown): Partial<UiPreferences> {
  if (!stored || typeof stored !== 'object') return {};
  const value = stored as Record<string, unknown>;
  const out: { -readonly [K in keyof UiPreferences]?: UiPreferences[K] } = {};
  if (THEME_CHOICES.includes(value.theme as ThemeChoice)) out.theme = value.theme as ThemeChoice;
  if (typeof value.sidebarCollapsed === 'boolean') out.sidebarCollapsed = value.sidebarCollapsed;
  if (COST_DISPLAYS.includes(value.costDisplay as CostDisplay)) out.costDisplay = value.costDisplay as CostDisplay;
  return out;
}

/** UI preferences only (theme, sidebar, cost display), kept in the window's local storage. */
export const useUiPreferences = create<UiPreferences>()(
  persist(() => DEFAULTS, {
    name: 'ccmem-ui-preferences',
    version: 1,
    storage: createJSONStorage(() => window.localStorage),
    partialize: (state) => ({ theme: state.theme, sidebarCollapsed: state.sidebarCollapsed, costDisplay: state.costDisplay }),
    merge: (stored, current) => ({ ...current, ...sanitize(stored) }),
  }),
);

export function setTheme(theme: ThemeChoice): void {
  useUiPreferences.setState({ theme });
}

export function toggleSidebar(): void {
  useUiPreferences.setState((state) => ({ sidebarCollapsed: !state.sidebarCollapsed }));
}

export function setCostDisplay(costDisplay: CostDisplay): void {
  useUiPreferences.setState({ costDisplay });
}
