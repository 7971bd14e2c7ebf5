import type { ProjectRef } from '../../../shared/model/home';
import type { SessionSummary } from '../../../shared/model/session';
import type { HomeService } from '../home/HomeService';

/** A project's sessions as the Sessions list shows them: what discovery read of each file, newest first. */
export async function listSessions(home: HomeService, ref: ProjectRef): Promise<SessionSummary[]> {
  const sessions = await home.discoveredSessions(ref);
  return sessions.map((session) => ({ ...session, configRoot: ref.configRoot, slug: ref.slug }));
}
