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
  /** Proposal sets waiting for review: shown first, so a tab in the background still says so. */
  readonly waiting: number;
}

export function pageTitle(parts: TitleParts): string {
  const title = [parts.selection, parts.page, parts.project, APP_NAME].filter((part): part is string => Boolean(part)).join(' — ');
  return parts.waiting > 0 ? `(${parts.waiting}) ${title}` : title;
}
