import {
  DAILY_TOKEN_BUDGET_LIMITS,
  DEFAULT_BACKGROUND_SETTINGS,
  MIN_PROMPTS_LIMITS,
  type AutoDreamTurnedOff,
  type BackgroundSettings,
  type ReviewedDreamsMode,
} from '../../../shared/jobs/backgroundJobs';
import type { ProjectRef } from '../../../shared/model/home';
import { isRecord, readAppSettings, writeAppSettingsKey } from './appSettingsFile';

/** The key of `<dataDir>/settings.json` that holds the background jobs' settings. */
const KEY = 'background';
const MODES: readonly ReviewedDreamsMode[] = ['off', 'all', 'chosen'];
const MAX_CHOSEN_PROJECTS = 10_000;

function integerIn(value: unknown, limits: { readonly min: number; readonly max: number }, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= limits.min && value <= limits.max ? value : fallback;
}

function projectRefs(value: unknown): ProjectRef[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, MAX_CHOSEN_PROJECTS)
    .filter((p): p is ProjectRef => isRecord(p) && typeof p.configRoot === 'string' && typeof p.slug === 'string')
    .map((p) => ({ configRoot: p.configRoot, slug: p.slug }));
}

function turnedOffRecords(value: unknown): AutoDreamTurnedOff[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, MAX_CHOSEN_PROJECTS)
    .filter(
      (r): r is AutoDreamTurnedOff =>
        isRecord(r) && typeof r.configRoot === 'string' && typeof r.changeSetId === 'string' && typeof r.at === 'string',
    )
    .map((r) => ({ configRoot: r.configRoot, changeSetId: r.changeSetId, at: r.at }));
}

/** Reads the background settings; each value that is missing or malformed falls back to its default (everything off). */
export async function readBackgroundSettings(dataDir: string): Promise<BackgroundSettings> {
  const stored = (await readAppSettings(dataDir))[KEY];
  if (!isRecord(stored)) return DEFAULT_BACKGROUND_SETTINGS;
  const dreams = isRecord(stored.reviewedDreams) ? stored.reviewedDreams : {};
  const extraction = isRecord(stored.autoExtraction) ? stored.autoExtraction : {};
  const defaults = DEFAULT_BACKGROUND_SETTINGS;
  const since = typeof extraction.since === 'string' && !Number.isNaN(Date.parse(extraction.since)) ? extraction.since : null;
  const enabled = extraction.enabled === true && since !== null;
  return {
    reviewedDreams: {
      mode: MODES.find((mode) => mode === dreams.mode) ?? defaults.reviewedDreams.mode,
      projects: projectRefs(dreams.projects),
    },
    autoExtraction: {
      enabled,
      minPrompts: integerIn(extraction.minPrompts, MIN_PROMPTS_LIMITS, defaults.autoExtraction.minPrompts),
      since: enabled ? since : null,
    },
    dailyTokenBudget: integerIn(stored.dailyTokenBudget, DAILY_TOKEN_BUDGET_LIMITS, defaults.dailyTokenBudget),
    autoDreamTurnedOff: turnedOffRecords(stored.autoDreamTurnedOff),
  };
}

export function writeBackgroundSettings(dataDir: string, settings: BackgroundSettings): Promise<void> {
  return writeAppSettingsKey(dataDir, KEY, settings);
}
