import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isSessionFileName, sessionIdFromFileName } from '../../../../shared/claude/sessionFiles';
import { mapLimit } from '../../async/mapLimit';
import { readLinesBackward } from './backwardLineReader';
import { eventsOfRecord, mayHoldEvent, roughTimeOf, type TranscriptEvent, type TranscriptFileRef } from './transcriptEvents';

/** A project folder under `projects/` whose transcripts may hold the writes to a memory folder. */
export interface TranscriptSource {
  readonly configRoot: string;
  readonly slug: string;
  /** `<configRoot>/projects/<slug>` */
  readonly dir: string;
}

export interface EvidenceWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

/** Reading back further than this per file is not worth it for attribution; older changes stay unexplained. */
const MAX_BYTES_PER_FILE = 512 * 1024 * 1024;
/** A transcript's mtime is its last append; one older than the window start holds nothing in it (give or take clocks). */
const MTIME_SLACK_MS = 60_000;
const AGENT_FILE = /^agent-(.+)\.jsonl$/;

async function mtimeOf(path: string): Promise<number | null> {
  try {
    const stats = await fs.stat(path);
    return stats.isFile() ? stats.mtimeMs : null;
  } catch {
    return null;
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return [];
  }
}

/** Sub-agent transcripts of one session, in the 2.1.2+ layout, including workflow runs one level down. */
async function subagentFiles(source: TranscriptSource, sessionId: string): Promise<TranscriptFileRef[]> {
  const base = join(source.dir, sessionId, 'subagents');
  const found: TranscriptFileRef[] = [];
  const visit = async (dir: string, depth: number) => {
    for (const name of await names(dir)) {
      const match = AGENT_FILE.exec(name);
      if (match) found.push({ path: join(dir, name), configRoot: source.configRoot, slug: source.slug, sessionId, agentId: match[1] });
      else if (depth < 3 && !name.includes('.')) await visit(join(dir, name), depth + 1);
    }
  };
  await visit(base, 0);
  return found;
}

/**
 * Every transcript of the given project folders written to since `sinceMs`: main session files, and the
 * sub-agent files of those sessions (2.1.2+ layout) and beside them (legacy 2.0 layout). A sub-agent only
 * runs while its session does, so only fresh sessions are looked into: the cost follows recent activity.
 */
export async function transcriptsTouchedSince(sources: readonly TranscriptSource[], sinceMs: number): Promise<TranscriptFileRef[]> {
  const candidates: TranscriptFileRef[] = [];
  for (const source of sources) {
    for (const name of await names(source.dir)) {
      const agent = AGENT_FILE.exec(name);
      if (isSessionFileName(name))
        candidates.push({
          path: join(source.dir, name),
          configRoot: source.configRoot,
          slug: source.slug,
          sessionId: sessionIdFromFileName(name),
          agentId: null,
        });
      // Legacy (2.0.x) layout: the sub-agent's file sits beside the sessions; its lines carry the parent's id.
      else if (agent)
        candidates.push({
          path: join(source.dir, name),
          configRoot: source.configRoot,
          slug: source.slug,
          sessionId: '',
          agentId: agent[1],
        });
    }
  }
  const fresh = await mapLimit(candidates, 16, async (file) => ((await mtimeOf(file.path)) ?? 0) >= sinceMs - MTIME_SLACK_MS);
  const files = candidates.filter((_, index) => fresh[index]);
  for (const session of files.filter((file) => file.agentId === null)) {
    const source = sources.find((s) => s.configRoot === session.configRoot && s.slug === session.slug) as TranscriptSource;
    files.push(...(await subagentFiles(source, session.sessionId)));
  }
  return files;
}

/** Reads the events of one transcript that fall in the window, from its end back to the window's start. */
async function eventsOfFile(file: TranscriptFileRef, window: EvidenceWindow): Promise<TranscriptEvent[]> {
  const events: TranscriptEvent[] = [];
  try {
    await readLinesBackward(file.path, {
      maxBytes: MAX_BYTES_PER_FILE,
      onLine: (line, offset) => {
        const rough = mayHoldEvent(line) ? null : roughTimeOf(line);
        if (rough !== null) return rough >= window.fromMs;
        if (!mayHoldEvent(line)) return true;
        let record: unknown;
        try {
          record = JSON.parse(line.toString('utf8'));
        } catch {
          return true;
        }
        if (!record || typeof record !== 'object' || Array.isArray(record)) return true;
        const raw = record as Record<string, unknown>;
        // Legacy sibling sub-agent files carry their parent's session id on every line.
        const ref = file.sessionId === '' && typeof raw.sessionId === 'string' ? { ...file, sessionId: raw.sessionId } : file;
        const found = eventsOfRecord(raw, ref, offset);
        for (const event of found) if (event.timeMs >= window.fromMs && event.timeMs <= window.toMs) events.push(event);
        const time = found[0]?.timeMs ?? roughTimeOf(line);
        return time === null || time >= window.fromMs;
      },
    });
  } catch {
    // A transcript that vanished or cannot be read explains nothing; the change is still recorded.
  }
  return events;
}

/** Every memory-relevant event in these transcripts within the window, oldest first. */
export async function collectTranscriptEvents(files: readonly TranscriptFileRef[], window: EvidenceWindow): Promise<TranscriptEvent[]> {
  const perFile = await mapLimit(files, 4, (file) => eventsOfFile(file, window));
  return perFile.flat().sort((a, b) => a.timeMs - b.timeMs || a.offset - b.offset);
}
