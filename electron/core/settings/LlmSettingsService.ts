import type { ApiKeySource, ConnectionTestResult, LlmSettingsPatch, LlmSettingsView } from '../../../shared/jobs/llmSettings';
import { CodedError } from '../../../shared/result';
import { createAnthropicClient, DEFAULT_BASE_URL } from '../llm/anthropicClient';
import { LlmError, type LlmClient } from '../llm/llmTypes';
import { readLlmSettings, writeLlmSettings, type StoredLlmSettings } from './llmSettingsFile';
import type { SecretStore } from './secretStore';

export interface LlmEnvironment {
  /** `ANTHROPIC_API_KEY` in the CLI and the web shell; the desktop app passes null and uses its keychain. */
  readonly apiKey: string | null;
  /** `ANTHROPIC_BASE_URL`: used when the settings name no base URL. */
  readonly baseUrl: string | null;
  /** Retries on 429/5xx inside one model call; `CCMEM_LLM_MAX_RETRIES` lets tests see every error. */
  readonly maxRetries: number;
}

/** Reads the LLM environment variables a shell passes through. */
export function llmEnvironmentFrom(env: NodeJS.ProcessEnv, options: { readonly useApiKey: boolean }): LlmEnvironment {
  const retries = Number(env.CCMEM_LLM_MAX_RETRIES);
  return {
    apiKey: options.useApiKey ? env.ANTHROPIC_API_KEY?.trim() || null : null,
    baseUrl: env.ANTHROPIC_BASE_URL?.trim() || null,
    maxRetries: Number.isInteger(retries) && retries >= 0 && retries <= 10 ? retries : 2,
  };
}

/** What a job needs to call the model: a client and the settings in force when it started. */
export interface LlmSession {
  readonly client: LlmClient;
  readonly model: string;
  readonly maxCostUsdPerJob: number;
}

const MAX_KEY_LENGTH = 512;

/** A base URL must be an http(s) URL without credentials in it. */
function validateBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new CodedError('INVALID_INPUT', 'The base URL is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CodedError('INVALID_INPUT', 'The base URL must start with https:// or http://');
  if (url.username || url.password) throw new CodedError('INVALID_INPUT', 'Put no credentials in the base URL; use the API key field');
  return url.toString().replace(/\/+$/, '');
}

/**
 * The model, base URL, spending cap and API key. The key is read only to build a client: it is never
 * returned to a caller, logged, or stored outside the SecretStore.
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
      maxCostUsdPerJob: stored.maxCostUsdPerJob,
      keySource: await this.keySource(),
      keyPersistence: this.secrets.persistence,
    };
  }

  async update(patch: LlmSettingsPatch): Promise<LlmSettingsView> {
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
    return stored.baseUrl ?? this.environment.baseUrl ?? DEFAULT_BASE_URL;
  }

  private async keySource(): Promise<ApiKeySource> {
    if (await this.secrets.read()) return this.secrets.persistence;
    return this.environment.apiKey ? 'environment' : 'none';
  }
}
