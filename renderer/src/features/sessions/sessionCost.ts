import type { SessionCatalogEntry, TokenTotals } from '../../../../shared/model/catalog';
import { tokenCost } from '../../../../shared/model/modelPricing';
import { totalTokens } from './timelineFilter';

/** Claude Code's name for responses it made itself (errors, interruptions); they use no tokens. */
const SYNTHETIC_MODEL = '<synthetic>';

function realModels(models: readonly string[]): string[] {
  return models.filter((model) => model !== SYNTHETIC_MODEL);
}

function sum(parts: readonly TokenTotals[]): TokenTotals {
  return parts.reduce(
    (total, part) => ({
      input: total.input + part.input,
      output: total.output + part.output,
      cacheCreation: total.cacheCreation + part.cacheCreation,
      cacheRead: total.cacheRead + part.cacheRead,
    }),
    { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
  );
}

/**
 * What a session (its sub-agents included) would cost at API list prices, or null when that cannot be known. The
 * catalog adds a session's tokens up without saying which model used them, so a cost is only given when that is
 * certain: the session and its sub-agents used one model, or the session itself used none and each sub-agent one.
 * (The transcript's side panel prices every turn by its own model.)
 */
export function sessionCostUsd(session: SessionCatalogEntry): number | null {
  const models = realModels(session.models);
  if (models.length === 1) return tokenCost(models[0], sum([session.tokens, ...session.subagents.map((agent) => agent.tokens)]));
  if (models.length === 0 || totalTokens(session.tokens) > 0) return null;
  let total = 0;
  for (const agent of session.subagents) {
    const agentModels = realModels(agent.models);
    if (totalTokens(agent.tokens) === 0) continue;
    const cost = agentModels.length === 1 ? tokenCost(agentModels[0], agent.tokens) : null;
    if (cost === null) return null;
    total += cost;
  }
  return total;
}
