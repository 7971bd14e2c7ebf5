/** A current Sonnet: the model dreams and extraction replays use unless the user picks another. */
export const DEFAULT_MODEL = 'claude-sonnet-4-6';

/** US dollars one job may spend before it stops, unless the user sets another cap. */
export const DEFAULT_MAX_COST_USD_PER_JOB = 2;

/** What runs the model of a job: the Anthropic API with a key, or the user's own Claude Code (their login). */
export type LlmBackend = 'api' | 'claude-code';

/** The backends a user can choose; `auto` is the API key when one is configured, else Claude Code when found. */
export const LLM_BACKEND_CHOICES = ['auto', 'api', 'claude-code'] as const;
export type LlmBackendChoice = (typeof LLM_BACKEND_CHOICES)[number];

/** How a job's options name the backend: absent means the one Settings chose. */
export interface JobStartOptions {
  readonly via?: LlmBackend;
}

/** Where the engine found the `claude` it runs: `CCMEM_CLAUDE_PATH`, the path in Settings, or the PATH. */
export type ClaudeCodeSource = 'environment' | 'settings' | 'path';

/** How Claude Code signs in: a Claude subscription login pays in usage limits, not dollars. */
export type ClaudeCodeBilling = 'subscription' | 'api-key';

/** What the engine knows about the user's Claude Code, as Settings shows it. */
export type ClaudeCodeStatus =
  | { readonly found: false; readonly message: string }
  | {
      readonly found: true;
      readonly path: string;
      readonly source: ClaudeCodeSource;
      /** What `claude --version` printed, or null when it could not be run. */
      readonly version: string | null;
      readonly loggedIn: boolean;
      /** Claude Code's own name for how it signs in (`claude.ai`, `api_key`, `oauth_token`, …), or null. */
      readonly authMethod: string | null;
      readonly billing: ClaudeCodeBilling | null;
      /** Why the version or the login could not be read, or null. */
      readonly problem: string | null;
    };

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
  /** The backend chosen in Settings. */
  readonly backend: LlmBackendChoice;
  /** What a job started now would use; null when neither an API key nor a logged-in Claude Code is there. */
  readonly effectiveBackend: LlmBackend | null;
  /** The `claude` path typed into Settings (used when `CCMEM_CLAUDE_PATH` is not set), or null for the PATH. */
  readonly claudePath: string | null;
  readonly claudeCode: ClaudeCodeStatus;
}

export interface LlmSettingsPatch {
  readonly model?: string;
  readonly baseUrl?: string | null;
  readonly maxCostUsdPerJob?: number;
  readonly backend?: LlmBackendChoice;
  readonly claudePath?: string | null;
}

export interface ConnectionTestResult {
  readonly via: LlmBackend;
  readonly ok: boolean;
  readonly model: string;
  readonly message: string;
  readonly latencyMs: number;
}
