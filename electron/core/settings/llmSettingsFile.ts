import { DEFAULT_MAX_COST_USD_PER_JOB, DEFAULT_MODEL } from '../../../shared/jobs/llmSettings';
import { isRecord, readAppSettings, writeAppSettingsKey } from './appSettingsFile';

/** The non-secret LLM settings, kept under `llm` in `<dataDir>/settings.json`. */
export interface StoredLlmSettings {
  readonly model: string;
  readonly baseUrl: string | null;
  readonly maxCostUsdPerJob: number;
}

const DEFAULT_LLM_SETTINGS: StoredLlmSettings = {
  model: DEFAULT_MODEL,
  baseUrl: null,
  maxCostUsdPerJob: DEFAULT_MAX_COST_USD_PER_JOB,
};

/** Reads the LLM settings; each value that is missing or malformed falls back to its default. */
export async function readLlmSettings(dataDir: string): Promise<StoredLlmSettings> {
  const llm = (await readAppSettings(dataDir)).llm;
  if (!isRecord(llm)) return DEFAULT_LLM_SETTINGS;
  return {
    model: typeof llm.model === 'string' && llm.model.trim() !== '' ? llm.model : DEFAULT_LLM_SETTINGS.model,
    baseUrl: typeof llm.baseUrl === 'string' && llm.baseUrl !== '' ? llm.baseUrl : null,
    maxCostUsdPerJob:
      typeof llm.maxCostUsdPerJob === 'number' && Number.isFinite(llm.maxCostUsdPerJob) && llm.maxCostUsdPerJob > 0
        ? llm.maxCostUsdPerJob
        : DEFAULT_LLM_SETTINGS.maxCostUsdPerJob,
  };
}

/** Saves the LLM settings atomically (temp file + rename), keeping every other key of settings.json. */
export async function writeLlmSettings(dataDir: string, settings: StoredLlmSettings): Promise<void> {
  await writeAppSettingsKey(dataDir, 'llm', {
    model: settings.model,
    baseUrl: settings.baseUrl,
    maxCostUsdPerJob: settings.maxCostUsdPerJob,
  });
}
