import { DEFAULT_MAX_COST_USD_PER_JOB, DEFAULT_MODEL, LLM_BACKEND_CHOICES, type LlmBackendChoice } from '../../../shared/jobs/llmSettings';
import { isRecord, readAppSettings, writeAppSettingsKey } from './appSettingsFile';
import { checkBaseUrl } from './baseUrlPolicy';

/** The non-secret LLM settings, kept under `llm` in `<dataDir>/settings.json`. */
export interface StoredLlmSettings {
  readonly model: string;
  readonly baseUrl: string | null;
  readonly maxCostUsdPerJob: number;
  readonly backend: LlmBackendChoice;
  /** The `claude` to run when `CCMEM_CLAUDE_PATH` names none; null: the one on the PATH. */
  readonly claudePath: string | null;
}

const DEFAULT_LLM_SETTINGS: StoredLlmSettings = {
  model: DEFAULT_MODEL,
  baseUrl: null,
  maxCostUsdPerJob: DEFAULT_MAX_COST_USD_PER_JOB,
  backend: 'auto',
  claudePath: null,
};

/** Reads the LLM settings; each value that is missing or malformed falls back to its default. */
export async function readLlmSettings(dataDir: string): Promise<StoredLlmSettings> {
  const llm = (await readAppSettings(dataDir)).llm;
  if (!isRecord(llm)) return DEFAULT_LLM_SETTINGS;
  return {
    model: typeof llm.model === 'string' && llm.model.trim() !== '' ? llm.model : DEFAULT_LLM_SETTINGS.model,
    // The file is only ours to write, but anything may have written it: a base URL the app would refuse is ignored.
    baseUrl: typeof llm.baseUrl === 'string' && llm.baseUrl !== '' && checkBaseUrl(llm.baseUrl).ok ? llm.baseUrl : null,
    maxCostUsdPerJob:
      typeof llm.maxCostUsdPerJob === 'number' && Number.isFinite(llm.maxCostUsdPerJob) && llm.maxCostUsdPerJob > 0
        ? llm.maxCostUsdPerJob
        : DEFAULT_LLM_SETTINGS.maxCostUsdPerJob,
    backend: LLM_BACKEND_CHOICES.find((choice) => choice === llm.backend) ?? DEFAULT_LLM_SETTINGS.backend,
    claudePath: typeof llm.claudePath === 'string' && llm.claudePath !== '' ? llm.claudePath : null,
  };
}

/** Saves the LLM settings atomically (temp file + rename), keeping every other key of settings.json. */
export async function writeLlmSettings(dataDir: string, settings: StoredLlmSettings): Promise<void> {
  await writeAppSettingsKey(dataDir, 'llm', {
    model: settings.model,
    baseUrl: settings.baseUrl,
    maxCostUsdPerJob: settings.maxCostUsdPerJob,
    backend: settings.backend,
    claudePath: settings.claudePath,
  });
}
