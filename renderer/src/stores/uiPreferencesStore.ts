import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { DEFAULT_PREFERENCES, sanitizePreferences, type CostDisplay, type ThemeChoice, type UiPreferences } from './uiPreferences';

/** UI preferences only (theme, sidebar, cost display), kept in the window's local storage. */
export const useUiPreferences = create<UiPreferences>()(
  persist(() => DEFAULT_PREFERENCES, {
    name: 'ccmem-ui-preferences',
    version: 1,
    storage: createJSONStorage(() => window.localStorage),
    partialize: (state) => ({ theme: state.theme, sidebarCollapsed: state.sidebarCollapsed, costDisplay: state.costDisplay }),
    merge: (stored, current) => ({ ...current, ...sanitizePreferences(stored) }),
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
