import { useShallow } from 'zustand/react/shallow';
import { COST_DISPLAYS, THEME_CHOICES, type CostDisplay, type ThemeChoice } from '../stores/uiPreferences';
import { setCostDisplay, setTheme, useUiPreferences } from '../stores/uiPreferencesStore';

const THEME_NAMES: Readonly<Record<ThemeChoice, string>> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };
const COST_NAMES: Readonly<Record<CostDisplay, string>> = {
  'api-prices': 'Tokens and their cost at API list prices (you use an API key)',
  'tokens-only': 'Tokens only (you use a Claude subscription)',
};

/** The window's own preferences: theme and how token use is shown. Kept in this browser or window only. */
export function AppearanceSettings() {
  const { theme, costDisplay } = useUiPreferences(useShallow((s) => ({ theme: s.theme, costDisplay: s.costDisplay })));
  return (
    <section className="appearance" aria-labelledby="appearance-heading">
      <h2 id="appearance-heading">Appearance</h2>
      <fieldset>
        <legend>Theme</legend>
        {THEME_CHOICES.map((choice) => (
          <label key={choice}>
            <input type="radio" name="theme" value={choice} checked={theme === choice} onChange={() => setTheme(choice)} />{' '}
            {THEME_NAMES[choice]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Token use of sessions</legend>
        {COST_DISPLAYS.map((choice) => (
          <label key={choice}>
            <input
              type="radio"
              name="cost-display"
              value={choice}
              checked={costDisplay === choice}
              onChange={() => setCostDisplay(choice)}
            />{' '}
            {COST_NAMES[choice]}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
