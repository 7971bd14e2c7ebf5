import { create } from 'zustand';
import type { HomeSnapshot } from '../../../shared/model/home';
import type { Result } from '../../../shared/result';
import { api } from '../api/connectApi';
import { onReconnected } from '../api/connectionStore';

interface HomeState {
  readonly home: HomeSnapshot | null;
  readonly error: string | null;
  readonly busy: boolean;
}

export const useHomeStore = create<HomeState>()(() => ({ home: null, error: null, busy: false }));

/** A part of the first discovery never replaces the whole home a `homeChanged` may have brought before the answer. */
function settle(result: Result<HomeSnapshot>): void {
  const shown = useHomeStore.getState().home;
  if (result.ok && result.value.discovering !== null && shown !== null && shown.discovering === null)
    useHomeStore.setState({ error: null, busy: false });
  else if (result.ok) useHomeStore.setState({ home: result.value, error: null, busy: false });
  else useHomeStore.setState({ error: result.error.message, busy: false });
}

export async function loadHome(): Promise<void> {
  useHomeStore.setState({ busy: true });
  settle(await api.getHome({}));
}

export async function refreshHome(): Promise<void> {
  useHomeStore.setState({ busy: true });
  settle(await api.refreshHome({}));
}

export async function openDemoHome(): Promise<void> {
  useHomeStore.setState({ busy: true });
  settle(await api.openDemoHome({}));
}

api.onHomeChanged((home) => useHomeStore.setState({ home }));
// Projects may have come or gone while the connection was lost.
onReconnected(() => void loadHome());
