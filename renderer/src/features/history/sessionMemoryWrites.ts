import type { SessionMemoryWrites } from '../../../../shared/history/historyModel';
import { api } from '../../api/connectApi';
import { useRequest } from '../../components/useRequest';
import { useHistoryStore } from './historyStore';

/**
 * What memory history says every session changed, by session id, fetched again whenever history changes; null
 * until it has loaded. The Sessions table counts memory writes from this, so it agrees with the transcript's
 * side panel and the History page.
 */
export function useSessionMemoryWrites(): ReadonlyMap<string, SessionMemoryWrites> | null {
  const revision = useHistoryStore((s) => s.revision);
  const state = useRequest(`session-memory-writes\0${revision}`, () => api.listSessionMemoryWrites({ sessionIds: null }));
  if (state.status !== 'done') return null;
  return new Map(state.value.map((writes) => [writes.sessionId, writes]));
}
