import type { AgentMemorySummary } from '../../../shared/model/agents';
import type { HomeService } from '../home/HomeService';
import { agentMemoriesIn } from '../home/homePlaces';

/** Every agent memory in the user scope of each config root and the project and local scopes of each project on disk. */
export async function listAgentMemories(home: HomeService): Promise<AgentMemorySummary[]> {
  return agentMemoriesIn(await home.getHome());
}
