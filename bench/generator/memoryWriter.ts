import { utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sliceText, titleText, type ContentPools } from './contentPools';
import { FolderCache } from './FolderCache';
import type { MemoryPlan } from './homePlan';
import { SeededRandom } from './seededRandom';

const DAY_MS = 86_400_000;
const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'];
/** The frontmatter variants Claude Code has written over time (claude-code-state.md §6.2), and none at all. */
const VARIANTS = ['flat', 'nested-node-type', 'nested', 'none'] as const;

export interface WrittenFiles {
  readonly files: number;
  readonly bytes: number;
  /** Files that contain the search needle. */
  readonly needleFiles: number;
}

class FileTally {
  files = 0;
  bytes = 0;
  needleFiles = 0;
  private readonly folders = new FolderCache();

  constructor(private readonly needle: string) {}

  write(path: string, text: string, mtimeMs: number): void {
    this.folders.ensure(dirname(path));
    writeFileSync(path, text, { flag: 'wx' });
    utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
    this.files++;
    this.bytes += Buffer.byteLength(text);
    if (text.includes(this.needle)) this.needleFiles++;
  }
}

/** Plain text (JSON escapes undone) from the prose pool, for Markdown files. */
function prose(pools: ContentPools, chars: number, random: SeededRandom): string {
  return (JSON.parse(`"${sliceText(pools.prose, chars, random)}"`) as string).trim();
}

function frontmatter(variant: (typeof VARIANTS)[number], name: string, description: string, type: string, originSessionId: string): string {
  switch (variant) {
    case 'flat':
      return `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\noriginSessionId: ${originSessionId}\n---\n`;
    case 'nested-node-type':
      return `---\nname: ${name}\ndescription: ${description}\nmetadata: \n  node_type: memory\n  type: ${type}\n  originSessionId: ${originSessionId}\n---\n`;
    case 'nested':
      return `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  type: ${type}\n---\n`;
    case 'none':
      return '';
  }
}

/**
 * A project's memory folder: a MEMORY.md index, topic files in every frontmatter variant (some in
 * sub-folders, some stale, a few with a broken header or a secret-looking token), and optionally team
 * memory, a consolidation lock and daily logs.
 */
export function writeMemoryFolder(o: {
  memoryDir: string;
  plan: MemoryPlan;
  sessionIds: readonly string[];
  pools: ContentPools;
  random: SeededRandom;
  nowMs: number;
  needle: string;
}): WrittenFiles {
  const { memoryDir, plan, pools, random } = o;
  const tally = new FileTally(o.needle);
  const index: string[] = [];
  for (let i = 0; i < plan.topicFiles; i++) {
    const type = random.chance(0.03) ? 'misc' : random.pick(MEMORY_TYPES);
    const topic = `${titleText(random)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')}_${i}`;
    const folder = random.chance(0.1) ? `${type}/` : '';
    const relative = `${folder}${type}_${topic}.md`;
    const name = topic.replace(/_/g, '-');
    let description = prose(pools, random.logUniform(40, 160), random).replace(/\s+/g, ' ');
    if (random.chance(0.02)) description = `Note: ${description}`;
    const originSessionId = o.sessionIds.length > 0 ? random.pick(o.sessionIds) : random.uuid();
    let body = `${prose(pools, random.logUniform(120, 2_000), random)}\n\n**Why:** ${prose(pools, 120, random)}\n\n**How to apply:** ${prose(pools, 120, random)}\n`;
    if (random.chance(0.01)) body += `\nDeploy token: ghp_${random.base62(36)}\n`;
    if (i % 97 === 5) body += `\nSee also the ${o.needle} notes.\n`;
    const header = random.chance(0.01)
      ? `---\nname: ${name}\ndescription: "unterminated: quote\ntype: ${type}\n---\n`
      : frontmatter(VARIANTS[i % VARIANTS.length], name, description, type, originSessionId);
    const ageDays = random.logUniform(1, 400);
    tally.write(join(memoryDir, relative), header + body, o.nowMs - ageDays * DAY_MS);
    index.push(`- [${titleText(random)}](${relative}) — ${description.slice(0, random.int(40, 140))}`);
  }
  tally.write(join(memoryDir, 'MEMORY.md'), `${index.join('\n')}\n`, o.nowMs - DAY_MS);
  if (plan.team) {
    const teamIndex: string[] = [];
    for (let i = 0; i < 3; i++) {
      const relative = `reference_team_${i}.md`;
      tally.write(
        join(memoryDir, 'team', relative),
        frontmatter('flat', `team-${i}`, prose(pools, 80, random), 'reference', random.uuid()) + prose(pools, 600, random),
        o.nowMs - random.int(1, 30) * DAY_MS,
      );
      teamIndex.push(`- [Team reference ${i}](${relative}) — shared pointer`);
    }
    tally.write(join(memoryDir, 'team', 'MEMORY.md'), `${teamIndex.join('\n')}\n`, o.nowMs - 2 * DAY_MS);
  }
  if (plan.consolidationLock) {
    // A lock left by a finished dream: its mtime is the last consolidation; the holder is long gone.
    tally.write(join(memoryDir, '.consolidate-lock'), random.chance(0.5) ? '' : '4194303', o.nowMs - random.int(1, 20) * DAY_MS);
  }
  if (plan.dailyLogs) {
    for (let day = 25; day <= 30; day++) {
      tally.write(
        join(memoryDir, 'logs', '2026', '05', `2026-05-${day}.md`),
        `# 2026-05-${day}\n\n${prose(pools, 800, random)}\n`,
        o.nowMs,
      );
    }
  }
  return tally;
}

/** User-scope agent memories under `<root>/agent-memory/` (claude-code-state.md §7.6). */
export function writeAgentMemories(o: { root: string; pools: ContentPools; seed: number; nowMs: number; needle: string }): WrittenFiles {
  const random = new SeededRandom(o.seed, 'agent-memory');
  const tally = new FileTally(o.needle);
  const agents: [folder: string, topics: number][] = [
    ['code-reviewer', 8],
    ['plugin-security-auditor', 3],
    ['Explore', 2],
  ];
  for (const [folder, topics] of agents) {
    const dir = join(o.root, 'agent-memory', folder);
    const index: string[] = [];
    for (let i = 0; i < topics; i++) {
      const relative = `feedback_${folder.toLowerCase()}_${i}.md`;
      tally.write(
        join(dir, relative),
        frontmatter('flat', `${folder}-${i}`, prose(o.pools, 80, random), 'feedback', random.uuid()) + prose(o.pools, 900, random),
        o.nowMs - random.int(1, 90) * DAY_MS,
      );
      index.push(`- [${titleText(random)}](${relative})`);
    }
    tally.write(join(dir, 'MEMORY.md'), `${index.join('\n')}\n`, o.nowMs - DAY_MS);
  }
  tally.write(join(o.root, 'agent-memory', 'code-reviewer', '.snapshot-synced.json'), '{"syncedFrom":"2026-04-01T00:00:00.000Z"}', o.nowMs);
  return tally;
}
