import type { ProposalEvidence } from '../../../shared/jobs/jobTypes';
import type { StagingOverlay } from './StagingOverlay';
import { absoluteToolPath, resolveToolPath, symlinkOnPath, TRANSCRIPTS_ALIAS, type ToolRoots } from './toolPaths';
import { fileLines } from './transcriptAccess';
import { renderEntry } from './transcriptDigest';

/** A source as the model cites it in a write, edit or delete call. */
export interface Citation {
  /** A session id or `@transcripts/…jsonl` path for a transcript line; a memory file path for a line of memory. */
  readonly source: string;
  readonly line: number;
  readonly quote: string;
}

/** No file keeps more citations than this, however often the model edits it. */
const MAX_CITATIONS_PER_FILE = 50;
/** Fewer characters than this prove nothing ("ok", "v2"). */
const MIN_QUOTE_CHARS = 4;
const SHOWN_LINE_CHARS = 600;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const AGENT_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/subagents\/agent-([A-Za-z0-9_-]{1,100})\.jsonl$/i;

/** Lower case, runs of white space as one space, typographic quotes as plain ones: how a quote is compared. */
function normalize(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Every string in a parsed transcript entry (message text, tool inputs and results), but not signatures. */
function stringsOf(value: unknown, into: string[], depth = 0): void {
  if (depth > 20) return;
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into, depth + 1);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (key !== 'signature' && key !== 'data') stringsOf(item, into, depth + 1);
  }
}

/** The part of a text around a match (or its start), on one line, for the reviewer. */
function excerpt(text: string, at: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SHOWN_LINE_CHARS) return flat;
  const from = Math.max(0, Math.min(at, flat.length) - SHOWN_LINE_CHARS / 3);
  const to = Math.min(flat.length, from + SHOWN_LINE_CHARS);
  return `${from > 0 ? '…' : ''}${flat.slice(from, to)}${to < flat.length ? '…' : ''}`;
}

interface LineLookup {
  /** The readable text of the line, or null when there is none. */
  readonly text: string | null;
  /** What the quote is searched in: the readable text and, for a transcript, every string of the entry. */
  readonly haystack: string;
  readonly problem: string | null;
}

type Place =
  | { readonly kind: 'transcript'; readonly file: string; readonly sessionId: string; readonly agentId: string | null }
  | { readonly kind: 'memory'; readonly file: string }
  | { readonly kind: 'refused'; readonly problem: string };

/**
 * The sources a job's proposals rest on. Each citation is looked up when the model makes it: the transcript
 * line through the same streaming reader the tools use, the memory line in the memory as it was when the job
 * started (never the job's own staged text). A citation that names no real line, or whose quote the line does
 * not contain, is kept but marked, so the reviewer knows what they are approving.
 */
export class EvidenceLedger {
  private byPath = new Map<string, ProposalEvidence[]>();
  private readonly transcriptLines = new Map<string, LineLookup>();

  constructor(
    private readonly roots: ToolRoots,
    private readonly overlay: StagingOverlay,
  ) {}

  /** Every citation filed for a memory file, in the order they were made. */
  citationsFor(rel: string): ProposalEvidence[] {
    return [...(this.byPath.get(rel) ?? [])];
  }

  checkpoint(): ReadonlyMap<string, readonly ProposalEvidence[]> {
    return new Map([...this.byPath].map(([path, list]) => [path, [...list]]));
  }

  restore(checkpoint: ReadonlyMap<string, readonly ProposalEvidence[]>): void {
    this.byPath = new Map([...checkpoint].map(([path, list]) => [path, [...list]]));
  }

  /**
   * Looks up the citations of one staged change and files them under its path. Returns a note for the model
   * about citations that failed (or none given), so it can cite properly next time; empty when all hold.
   */
  async record(rel: string, citations: readonly Citation[], signal: AbortSignal): Promise<string> {
    if (citations.length === 0) {
      return '\nNote: this change cites no source. Pass evidence (source, line, quote) for what it rests on; the reviewer sees uncited changes flagged.';
    }
    const list = this.byPath.get(rel) ?? [];
    const failed: string[] = [];
    for (const citation of citations) {
      const evidence = await this.check(citation, signal);
      if (!evidence.verified) failed.push(`${citation.source}:${citation.line}: ${evidence.problem ?? 'not verified'}`);
      const known = list.some(
        (e) =>
          e.sessionId === evidence.sessionId &&
          e.agentId === evidence.agentId &&
          e.file === evidence.file &&
          e.line === evidence.line &&
          e.text === evidence.text,
      );
      if (!known && list.length < MAX_CITATIONS_PER_FILE) list.push(evidence);
    }
    this.byPath.set(rel, list);
    return failed.length === 0
      ? ''
      : `\nNote: ${failed.length} citation(s) could not be verified and are flagged for the reviewer: ${failed.slice(0, 5).join('; ')}`;
  }

  private place(source: string): Place {
    const trimmed = source.trim();
    const raw = SESSION_ID.test(trimmed) ? `${TRANSCRIPTS_ALIAS}/${trimmed}.jsonl` : trimmed;
    const path = resolveToolPath(raw, this.roots);
    if (path.area === 'refused') return { kind: 'refused', problem: path.reason };
    if (path.area === 'memory') return { kind: 'memory', file: path.rel };
    const session = SESSION_FILE.exec(path.rel);
    const agent = AGENT_FILE.exec(path.rel);
    if (!session && !agent)
      return { kind: 'refused', problem: 'not a session transcript (<session>.jsonl or <session>/subagents/agent-<id>.jsonl)' };
    return {
      kind: 'transcript',
      file: path.rel,
      sessionId: (session?.[1] ?? agent?.[1] ?? '').toLowerCase(),
      agentId: agent?.[2] ?? null,
    };
  }

  private async check(citation: Citation, signal: AbortSignal): Promise<ProposalEvidence> {
    const place = this.place(citation.source);
    const base = {
      sessionId: place.kind === 'transcript' ? place.sessionId : null,
      agentId: place.kind === 'transcript' ? place.agentId : null,
      file: place.kind === 'memory' ? place.file : place.kind === 'refused' ? citation.source.slice(0, 1024) : null,
      line: citation.line,
      text: citation.quote,
    };
    if (place.kind === 'refused') return { ...base, lineText: null, verified: false, problem: place.problem };
    const lookup =
      place.kind === 'memory' ? this.memoryLine(place.file, citation.line) : await this.transcriptLine(place.file, citation.line, signal);
    if (lookup.problem !== null || lookup.text === null)
      return { ...base, lineText: lookup.text, verified: false, problem: lookup.problem ?? 'no such line' };
    const quote = normalize(citation.quote);
    if (quote.replace(/\W/g, '').length < MIN_QUOTE_CHARS)
      return { ...base, lineText: excerpt(lookup.text, 0), verified: false, problem: 'the quote is too short to check' };
    const at = normalize(lookup.text).indexOf(quote);
    if (at < 0 && !normalize(lookup.haystack).includes(quote)) {
      return { ...base, lineText: excerpt(lookup.text, 0), verified: false, problem: 'the line does not contain the quoted text' };
    }
    return { ...base, lineText: excerpt(lookup.text, Math.max(at, 0)), verified: true, problem: null };
  }

  /** A line of a memory file as it was when the job started. */
  private memoryLine(rel: string, line: number): LineLookup {
    const entry = this.overlay.baseline.files.get(rel);
    if (!entry) return { text: null, haystack: '', problem: 'no such memory file when the job started' };
    if (entry.kind !== 'text') return { text: null, haystack: '', problem: 'that memory file cannot be read' };
    const lines = entry.content.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (line > lines.length) return { text: null, haystack: '', problem: `the file has ${lines.length} lines` };
    return { text: lines[line - 1], haystack: lines[line - 1], problem: null };
  }

  /** A line of a transcript, streamed up to that line; the same line cited twice is read once. */
  private async transcriptLine(rel: string, line: number, signal: AbortSignal): Promise<LineLookup> {
    const key = `${rel}:${line}`;
    const known = this.transcriptLines.get(key);
    if (known) return known;
    const root = this.roots.transcriptDir;
    let lookup: LineLookup;
    if (root === null) lookup = { text: null, haystack: '', problem: 'this memory has no transcripts' };
    else if ((await symlinkOnPath(root, rel)) !== null) lookup = { text: null, haystack: '', problem: 'symlinks are never followed' };
    else lookup = await readCitedLine(absoluteToolPath({ area: 'transcripts', rel }, this.roots), line, signal);
    this.transcriptLines.set(key, lookup);
    return lookup;
  }
}

async function readCitedLine(file: string, line: number, signal: AbortSignal): Promise<LineLookup> {
  try {
    for await (const { bytes, lineNumber } of fileLines(file, signal)) {
      if (lineNumber < line) continue;
      if (lineNumber > line) break;
      const raw = bytes.toString('utf8');
      let entry: unknown;
      try {
        entry = JSON.parse(raw);
      } catch {
        return { text: raw, haystack: raw, problem: null };
      }
      const strings: string[] = [];
      stringsOf(entry, strings);
      const rendered = entry && typeof entry === 'object' && !Array.isArray(entry) ? renderEntry(entry as Record<string, unknown>) : null;
      const text = rendered ? rendered.pieces.join('\n') : strings.join('\n');
      return { text, haystack: `${strings.join('\n')}\n${raw}`, problem: null };
    }
    return { text: null, haystack: '', problem: 'the transcript has no such line (or it is too long to read)' };
  } catch (error) {
    if (signal.aborted) throw error;
    return { text: null, haystack: '', problem: 'the transcript cannot be read' };
  }
}
