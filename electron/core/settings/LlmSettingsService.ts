import type {
  ApiKeySource,
  BaseUrlSource,
  ConnectionTestResult,
  LlmSettingsPatch,
  LlmSettingsView,
} from '../../../shared/jobs/llmSettings';
import { CodedError } from '../../../shared/result';
import { createAnthropicClient, DEFAULT_BASE_URL } from '../llm/anthropicClient';
import { LlmError, type LlmClient } from '../llm/llmTypes';
import { checkBaseUrl } from './baseUrlPolicy';
import { readLlmSettings, writeLlmSettings, type StoredLlmSettings } from './llmSettingsFile';
import type { SecretStore } from './secretStore';

export interface LlmEnvironment {
  /** `ANTHROPIC_API_KEY` in the CLI and the web shell; the desktop app passes null and uses its keychain. */
  readonly apiKey: string | null;
  /** `ANTHROPIC_BASE_URL`: where requests go whenever it is set, whatever the settings say. */
  readonly baseUrl: string | null;
  /** Retries on 429/5xx inside one model call; `CCMEM_LLM_MAX_RETRIES` lets tests see every error. */
  readonly maxRetries: number;
  /**
   * Whether a base URL saved in the settings is used (the desktop app, which asks before it saves one). The CLI and
   * the web shell ignore it: there the key comes from the environment, and so does where it may go.
   */
  readonly useSavedBaseUrl?: boolean;
}

/** Reads the LLM environment variables a shell passes through. */
export function llmEnvironmentFrom(
  env: NodeJS.ProcessEnv,
  options: { readonly useApiKey: boolean; readonly useSavedBaseUrl?: boolean },
): LlmEnvironment {
  const retries = Number(env.CCMEM_LLM_MAX_RETRIES);
  return {
    apiKey: options.useApiKey ? env.ANTHROPIC_API_KEY?.trim() || null : null,
    baseUrl: env.ANTHROPIC_BASE_URL?.trim() || null,
    maxRetries: Number.isInteger(retries) && retries >= 0 && retries <= 10 ? retries : 2,
    useSavedBaseUrl: options.useSavedBaseUrl ?? false,
  };
}

/** What a job needs to call the model: a client and the settings in force when it started. */
export interface LlmSession {
  readonly client: LlmClient;
  readonly model: string;
  readonly maxCostUsdPerJob: number;
}

const MAX_KEY_LENGTH = 512;

/** A base URL the key may be sent to (see baseUrlPolicy.ts), or INVALID_INPUT saying why not. */
function validateBaseUrl(raw: string): string {
  const checked = checkBaseUrl(raw);
  if (!checked.ok) throw new CodedError('INVALID_INPUT', checked.reason);
  return checked.url;
}

/**
 * The model, base URL, spending cap and API key. The key is read only to build a client: it is never
 * returned to a caller, logged, or stored outside the SecretStore. It goes to `ANTHROPIC_BASE_URL` when that is set,
 * else (desktop only) to the base URL saved in the settings, else to the Anthropic API.
 */
export class LlmSettingsService {
  constructor(
    private readonly dataDir: string,
    private readonly secrets: SecretStore,
    private readonly environment: LlmEnvironment,
  ) {}

  async getView(): Promise<LlmSettingsView> {
    const stored = await readLlmSettings(this.dataDir);
    return {
      model: stored.model,
      baseUrl: stored.baseUrl,
      effectiveBaseUrl: this.effectiveBaseUrl(stored),
      baseUrlSource: this.baseUrlSource(stored),
      baseUrlEditable: this.environment.useSavedBaseUrl === true,
      maxCostUsdPerJob: stored.maxCostUsdPerJob,
      keySource: await this.keySource(),
      keyPersistence: this.secrets.persistence,
    };
  }

  async update(patch: LlmSettingsPatch): Promise<LlmSettingsView> {
    if (patch.baseUrl !== undefined && this.environment.useSavedBaseUrl !== true) {
      throw new CodedError('FORBIDDEN', 'Only the desktop app saves a base URL; here, set ANTHROPIC_BASE_URL where ccmem runs');
    }
    const stored = await readLlmSettings(this.dataDir);
    const next: StoredLlmSettings = {
      model: patch.model?.trim() || stored.model,
      baseUrl:
        patch.baseUrl === undefined
          ? stored.baseUrl
          : patch.baseUrl === null || patch.baseUrl.trim() === ''
            ? null
            : validateBaseUrl(patch.baseUrl),
      maxCostUsdPerJob: patch.maxCostUsdPerJob ?? stored.maxCostUsdPerJob,
    };
    await writeLlmSettings(this.dataDir, next);
    return this.getView();
  }

  async setApiKey(key: string): Promise<LlmSettingsView> {
    const trimmed = key.trim();
    if (trimmed === '' || trimmed.length > MAX_KEY_LENGTH || /\s/.test(trimmed)) {
      throw new CodedError('INVALID_INPUT', 'That does not look like an API key');
    }
    await this.secrets.write(trimmed);
    return this.getView();
  }

  async clearApiKey(): Promise<LlmSettingsView> {
    await this.secrets.clear();
    return this.getView();
  }

  /** A client with the current settings; fails with FORBIDDEN when there is no key. */
  async openSession(): Promise<LlmSession> {
    const stored = await readLlmSettings(this.dataDir);
    const apiKey = (await this.secrets.read()) ?? this.environment.apiKey;
    if (!apiKey) {
      throw new CodedError(
        'FORBIDDEN',
        this.secrets.persistence === 'keychain'
          ? 'No Anthropic API key: enter one in Settings'
          : 'No Anthropic API key: set ANTHROPIC_API_KEY, or enter one in Settings',
      );
    }
    const client = createAnthropicClient({ apiKey, baseUrl: this.effectiveBaseUrl(stored), maxRetries: this.environment.maxRetries });
    return { client, model: stored.model, maxCostUsdPerJob: stored.maxCostUsdPerJob };
  }

  /** One tiny call with the current settings: proves the key, the model and the base URL work together. */
  async testConnection(): Promise<ConnectionTestResult> {
    const session = await this.openSession();
    const started = Date.now();
    try {
      await session.client.probe(session.model, AbortSignal.timeout(30_000));
      return { ok: true, model: session.model, message: `Connected to ${session.client.baseUrl}`, latencyMs: Date.now() - started };
    } catch (error) {
      const message = error instanceof LlmError ? error.message : 'The connection test failed';
      return { ok: false, model: session.model, message, latencyMs: Date.now() - started };
    }
  }

  private effectiveBaseUrl(stored: StoredLlmSettings): string {
    const source = this.baseUrlSource(stored);
    return source === 'environment' ? this.environment.baseUrl! : source === 'settings' ? stored.baseUrl! : DEFAULT_BASE_URL;
  }

  private baseUrlSource(stored: StoredLlmSettings): BaseUrlSource {
    if (this.environment.baseUrl) return 'environment';
    return stored.baseUrl !== null && this.environment.useSavedBaseUrl === true ? 'settings' : 'default';
  }

  private async keySource(): Promise<ApiKeySource> {
    if (await this.secrets.read()) return this.secrets.persistence;
    return this.environment.apiKey ? 'environment' : 'none';
  }
}
