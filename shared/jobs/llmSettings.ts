/** A current Sonnet: the model dreams and extraction replays use unless the user picks another. */
export const DEFAULT_MODEL = 'claude-sonnet-4-6';

/** US dollars one job may spend before it stops, unless the user sets another cap. */
export const DEFAULT_MAX_COST_USD_PER_JOB = 2;

/** Where the API key comes from. The key itself never leaves the engine. */
export type ApiKeySource = 'environment' | 'keychain' | 'session' | 'none';

/** Where requests go: `ANTHROPIC_BASE_URL`, the base URL saved in the desktop app, or the Anthropic API. */
export type BaseUrlSource = 'environment' | 'settings' | 'default';

/** LLM settings as the renderer sees them: never the key, only whether there is one and where it lives. */
export interface LlmSettingsView {
  readonly model: string;
  /** The base URL saved in the settings, or null; used only by the desktop app, and never over ANTHROPIC_BASE_URL. */
  readonly baseUrl: string | null;
  /** The base URL requests really go to, with the API key. */
  readonly effectiveBaseUrl: string;
  readonly baseUrlSource: BaseUrlSource;
  /** Whether this shell may save a base URL (the desktop app only: it is where the key is sent). */
  readonly baseUrlEditable: boolean;
  readonly maxCostUsdPerJob: number;
  readonly keySource: ApiKeySource;
  /** Whether a key typed into the app is kept across restarts (the desktop keychain) or only while this server runs. */
  readonly keyPersistence: 'keychain' | 'session';
}

export interface LlmSettingsPatch {
  readonly model?: string;
  readonly baseUrl?: string | null;
  readonly maxCostUsdPerJob?: number;
}

export interface ConnectionTestResult {
  readonly ok: boolean;
  readonly model: string;
  readonly message: string;
  readonly latencyMs: number;
}
