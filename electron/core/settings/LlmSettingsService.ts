import { isAbsolute, join, win32 } from 'node:path';
import type {
  ApiKeySource,
  BaseUrlSource,
  ClaudeCodeStatus,
  ConnectionTestResult,
  LlmBackend,
  LlmBackendChoice,
  LlmSettingsPatch,
  LlmSettingsView,
} from '../../../shared/jobs/llmSettings';
import { CodedError } from '../../../shared/result';
import { DEFAULT_BASE_URL } from '../llm/anthropicBaseUrl';
import {
  claudeCodeAuth,
  claudeCodeEnv,
  claudeCodeVersion,
  locateClaudeCode,
  type ClaudeCodeInvocation,
  type ClaudeCodeLookup,
} from '../llm/claudeCodeCli';
import { probeClaudeCode } from '../llm/claudeCodeProbe';
import { createRunFolder } from '../llm/claudeCodeProcess';
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
  /** `CCMEM_CLAUDE_PATH`: the `claude` to run, before the path in Settings and the PATH. */
  readonly claudePath?: string | null;
  /** The environment Claude Code runs in and whose PATH is searched; default: this process's. */
  readonly claudeEnv?: NodeJS.ProcessEnv;
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
    claudePath: env.CCMEM_CLAUDE_PATH?.trim() || null,
    claudeEnv: env,
    useSavedBaseUrl: options.useSavedBaseUrl ?? false,
  };
}

/** What a job needs to run the model, with the settings in force when it started: an API client, or the user's Claude Code. */
export type LlmSession =
  | { readonly backend: 'api'; readonly client: LlmClient; readonly model: string; readonly maxCostUsdPerJob: number }
  | { readonly backend: 'claude-code'; readonly claude: ClaudeCodeInvocation; readonly model: string; readonly maxCostUsdPerJob: number };

const MAX_KEY_LENGTH = 512;
const MAX_PATH_LENGTH = 4096;
const CONNECTION_TEST_TIMEOUT_MS = 30_000;
/** A Claude Code test turn starts a whole CLI (and its MCP client): give it longer than one API call. */
const CLAUDE_CODE_TEST_TIMEOUT_MS = 90_000;

/** A base URL the key may be sent to (see baseUrlPolicy.ts), or INVALID_INPUT saying why not. */
function validateBaseUrl(raw: string): string {
  const checked = checkBaseUrl(raw);
  if (!checked.ok) throw new CodedError('INVALID_INPUT', checked.reason);
  return checked.url;
}

function isAbsolutePath(path: string): boolean {
  return isAbsolute(path) || win32.isAbsolute(path);
}

/** What a job would run through: the chosen backend when it is there; for `auto`, the key first, then Claude Code. */
function effectiveBackend(choice: LlmBackendChoice, hasKey: boolean, claudeFound: boolean): LlmBackend | null {
  const ready: Readonly<Record<LlmBackend, boolean>> = { api: hasKey, 'claude-code': claudeFound };
  if (choice !== 'auto') return ready[choice] ? choice : null;
  return hasKey ? 'api' : claudeFound ? 'claude-code' : null;
}

/** A `claude` path typed into Settings must be absolute; it is checked to be executable whenever it is used. */
function validateClaudePath(raw: string): string {
  const path = raw.trim();
  if (path.length > MAX_PATH_LENGTH || path.includes('\0')) throw new CodedError('INVALID_INPUT', 'That is not a path');
  if (!isAbsolutePath(path)) throw new CodedError('INVALID_INPUT', 'Give the full path to claude (for example /usr/local/bin/claude)');
  return path;
}

/**
 * The model, base URL, spending cap, API key and backend. The key is read only to build a client: it is never
 * returned to a caller, logged, or stored outside the SecretStore. It goes to `ANTHROPIC_BASE_URL` when that is set,
 * else (desktop only) to the base URL saved in the settings, else to the Anthropic API.
 * Claude Code keeps its own login: the engine only runs `claude`, and never reads its credentials.
 */
export class LlmSettingsService {
  constructor(
    private readonly dataDir: string,
    private readonly secrets: SecretStore,
    private readonly environment: LlmEnvironment,
  ) {}

  async getView(): Promise<LlmSettingsView> {
    const stored = await readLlmSettings(this.dataDir);
    const keySource = await this.keySource();
    const claudeCode = await this.claudeCodeStatus(stored);
    return {
      model: stored.model,
      baseUrl: stored.baseUrl,
      effectiveBaseUrl: this.effectiveBaseUrl(stored),
      baseUrlSource: this.baseUrlSource(stored),
      baseUrlEditable: this.environment.useSavedBaseUrl === true,
      maxCostUsdPerJob: stored.maxCostUsdPerJob,
      keySource,
      keyPersistence: this.secrets.persistence,
      backend: stored.backend,
      effectiveBackend: effectiveBackend(stored.backend, keySource !== 'none', claudeCode.found),
      claudePath: stored.claudePath,
      claudeCode,
    };
  }

  /** The model jobs use, without looking for Claude Code (estimates need only this). */
  async model(): Promise<string> {
    return (await readLlmSettings(this.dataDir)).model;
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
      backend: patch.backend ?? stored.backend,
      claudePath:
        patch.claudePath === undefined
          ? stored.claudePath
          : patch.claudePath === null || patch.claudePath.trim() === ''
            ? null
            : validateClaudePath(patch.claudePath),
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

  /**
   * What a job runs the model with, on the backend `via` names or else the one Settings chose (`auto`: the API
   * key when there is one, else Claude Code when it is found). Fails with FORBIDDEN, saying what to do, when that
   * backend cannot run: no key, no `claude`, or a `claude` that is not logged in.
   */
  async openSession(via?: LlmBackend): Promise<LlmSession> {
    const stored = await readLlmSettings(this.dataDir);
    const apiKey = (await this.secrets.read()) ?? this.environment.apiKey;
    let lookup: ClaudeCodeLookup | null = null;
    let backend = via ?? (stored.backend === 'auto' ? null : stored.backend);
    if (backend === null) {
      if (apiKey) backend = 'api';
      else {
        lookup = await this.locate(stored);
        if (!lookup.found) {
          const key =
            this.secrets.persistence === 'keychain' ? 'enter an API key in Settings' : 'set ANTHROPIC_API_KEY or enter a key in Settings';
          throw new CodedError('FORBIDDEN', `No Anthropic API key and no Claude Code: ${key}, or install Claude Code and log in`);
        }
        backend = 'claude-code';
      }
    }
    if (backend === 'claude-code') return this.openClaudeCodeSession(stored, lookup ?? (await this.locate(stored)));
    if (!apiKey) {
      throw new CodedError(
        'FORBIDDEN',
        this.secrets.persistence === 'keychain'
          ? 'No Anthropic API key: enter one in Settings'
          : 'No Anthropic API key: set ANTHROPIC_API_KEY, or enter one in Settings',
      );
    }
    // The SDK is loaded for the first call that uses it: every one-shot command builds this service, few call the model.
    const { createAnthropicClient } = await import('../llm/anthropicClient');
    const client = createAnthropicClient({ apiKey, baseUrl: this.effectiveBaseUrl(stored), maxRetries: this.environment.maxRetries });
    return { backend: 'api', client, model: stored.model, maxCostUsdPerJob: stored.maxCostUsdPerJob };
  }

  /**
   * One tiny call with the current settings on one backend: proves the key, the model and the base URL work
   * together, or that Claude Code answers one turn through the same spawn path a job uses.
   */
  async testConnection(via?: LlmBackend): Promise<ConnectionTestResult> {
    const session = await this.openSession(via);
    const started = Date.now();
    if (session.backend === 'claude-code') {
      const probe = await probeClaudeCode(session.claude, session.model, AbortSignal.timeout(CLAUDE_CODE_TEST_TIMEOUT_MS));
      return { via: 'claude-code', ok: probe.ok, model: session.model, message: probe.message, latencyMs: Date.now() - started };
    }
    try {
      await session.client.probe(session.model, AbortSignal.timeout(CONNECTION_TEST_TIMEOUT_MS));
      return {
        via: 'api',
        ok: true,
        model: session.model,
        message: `Connected to ${session.client.baseUrl}`,
        latencyMs: Date.now() - started,
      };
    } catch (error) {
      const message = error instanceof LlmError ? error.message : 'The connection test failed';
      return { via: 'api', ok: false, model: session.model, message, latencyMs: Date.now() - started };
    }
  }

  private get claudeEnv(): NodeJS.ProcessEnv {
    return claudeCodeEnv(this.environment.claudeEnv ?? process.env);
  }

  /** Where each Claude Code run gets its private working folder, and where the probes run. */
  private get runsDir(): string {
    return join(this.dataDir, 'claude-code-runs');
  }

  private locate(stored: StoredLlmSettings): Promise<ClaudeCodeLookup> {
    return locateClaudeCode({ environmentPath: this.environment.claudePath ?? null, settingsPath: stored.claudePath, env: this.claudeEnv });
  }

  private async openClaudeCodeSession(stored: StoredLlmSettings, lookup: ClaudeCodeLookup): Promise<LlmSession> {
    if (!lookup.found) throw new CodedError('FORBIDDEN', `Claude Code was not found: ${lookup.message}`);
    const { path } = lookup.location;
    const { version, auth } = await this.inRunFolder(async (env, cwd) => {
      const version = await claudeCodeVersion(path, env, cwd).catch((error: unknown) => {
        throw new CodedError('FORBIDDEN', `Claude Code at ${path} does not run: ${(error as Error).message}`);
      });
      const auth = await claudeCodeAuth(path, env, cwd).catch((error: unknown) => {
        throw new CodedError('FORBIDDEN', `Cannot tell whether Claude Code is logged in: ${(error as Error).message}`);
      });
      return { version, auth };
    });
    if (!auth.loggedIn || auth.billing === null) {
      throw new CodedError('FORBIDDEN', 'Claude Code is not logged in: run `claude` and sign in with /login, or use an API key');
    }
    return {
      backend: 'claude-code',
      claude: { path, version, env: this.claudeEnv, billing: auth.billing, runsDir: this.runsDir },
      model: stored.model,
      maxCostUsdPerJob: stored.maxCostUsdPerJob,
    };
  }

  /** Runs quick `claude` commands in a private run folder, as jobs run, so they leave nothing behind either. */
  private async inRunFolder<T>(work: (env: NodeJS.ProcessEnv, cwd: string) => Promise<T>): Promise<T> {
    const folder = await createRunFolder(this.runsDir);
    try {
      return await work(claudeCodeEnv(this.claudeEnv, folder.env), folder.cwd);
    } finally {
      await folder.dispose();
    }
  }

  /** What Settings shows about Claude Code: where it is, its version, and how it is logged in. */
  private async claudeCodeStatus(stored: StoredLlmSettings): Promise<ClaudeCodeStatus> {
    const lookup = await this.locate(stored);
    if (!lookup.found) return { found: false, message: lookup.message };
    const { path, source } = lookup.location;
    const [version, auth] = await this.inRunFolder((env, cwd) =>
      Promise.allSettled([claudeCodeVersion(path, env, cwd), claudeCodeAuth(path, env, cwd)]),
    );
    const problems = [version, auth].flatMap((settled) => (settled.status === 'rejected' ? [(settled.reason as Error).message] : []));
    return {
      found: true,
      path,
      source,
      version: version.status === 'fulfilled' ? version.value : null,
      loggedIn: auth.status === 'fulfilled' && auth.value.loggedIn,
      authMethod: auth.status === 'fulfilled' ? auth.value.authMethod : null,
      billing: auth.status === 'fulfilled' ? auth.value.billing : null,
      problem: problems.length > 0 ? problems.join('; ') : null,
    };
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
