import { create } from 'zustand';
import type { LlmSettingsPatch, LlmSettingsView } from '../../../../shared/jobs/llmSettings';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';

interface LlmSettingsState {
  /** The model settings as the engine holds them; null until read. */
  readonly view: LlmSettingsView | null;
  /** Why they could not be read. */
  readonly loadError: string | null;
}

export const useLlmSettingsStore = create<LlmSettingsState>()(() => ({ view: null, loadError: null }));

/** Reads the settings afresh when the section opens, so it never shows what another window changed meanwhile. */
export function openLlmSettings(): Promise<void> {
  useLlmSettingsStore.setState({ view: null, loadError: null });
  return loadLlmSettings();
}

export async function loadLlmSettings(): Promise<void> {
  const result = await api.getLlmSettings({});
  if (result.ok) useLlmSettingsStore.setState({ view: result.value, loadError: null });
  else useLlmSettingsStore.setState({ loadError: result.error.message });
}

/** Every write answers with the whole new view, which replaces the one shown. */
async function settle(write: Promise<Result<LlmSettingsView>>): Promise<Result<LlmSettingsView>> {
  const result = await write;
  if (result.ok) useLlmSettingsStore.setState({ view: result.value, loadError: null });
  return result;
}

export function saveLlmSettings(patch: LlmSettingsPatch): Promise<Result<LlmSettingsView>> {
  return settle(api.updateLlmSettings(patch));
}

/** Sends the key once; it never comes back, the view only says whether there is one and where it lives. */
export function saveApiKey(key: string): Promise<Result<LlmSettingsView>> {
  return settle(api.setApiKey({ key }));
}

export function removeApiKey(): Promise<Result<LlmSettingsView>> {
  return settle(api.clearApiKey({}));
}
