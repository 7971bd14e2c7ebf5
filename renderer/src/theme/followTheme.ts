import { resolveTheme } from '../stores/uiPreferences';
import { useUiPreferences } from '../stores/uiPreferencesStore';

/**
 * Keeps `data-theme` on <html> in step with the user's choice and, for "system", with the system's colour scheme.
 * Called once before the first render, so the page never flashes the other theme.
 */
export function followTheme(): void {
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const apply = (): void => {
    document.documentElement.dataset.theme = resolveTheme(useUiPreferences.getState().theme, media.matches);
  };
  apply();
  media.addEventListener('change', apply);
  useUiPreferences.subscribe(apply);
}
