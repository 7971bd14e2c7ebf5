/**
 * The window's title: what is selected, the page, the project and the app, most specific first, so a tab, a
 * bookmark or the window list names exactly what it shows.
 */
export const APP_NAME = 'Claude Memory Manager';

export interface TitleParts {
  /** The memory file, agent or session shown, in words; null when nothing is selected. */
  readonly selection: string | null;
  readonly page: string;
  /** The project's name, or null on pages that are not about one project. */
  readonly project: string | null;
}

export function pageTitle(parts: TitleParts): string {
  return [parts.selection, parts.page, parts.project, APP_NAME].filter((part): part is string => Boolean(part)).join(' — ');
}
