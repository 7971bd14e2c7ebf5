import { lineStats } from '../../../shared/history/textDiff';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import type { MemoryChangeResult } from '../../../shared/memory/memoryReview';
import { localDateOf } from '../../../shared/memory/fixes/absoluteDates';
import { summarizeFixes } from '../../../shared/memory/fixes/fixCatalog';
import { lineAt } from '../../../shared/memory/fixes/textEdits';
import { filesNeeded, planFixes, type FixFileHeader, type FixInput, type FixResult } from '../../../shared/memory/fixes/fixPlanner';
import type { MemoryFix, MemoryFixPlan, PlannedFileChange } from '../../../shared/memory/fixes/memoryFix';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import type { SecretSpan } from '../../../shared/memory/secretMask';
import { CodedError } from '../../../shared/result';
import { ABSENT, contentHash } from '../fs/contentHash';
import { conflictError } from '../fs/safeWriter';
import type { ChangeSetWriter, FileChange } from '../changes/changeSetWriter';
import type { HomeService } from '../home/HomeService';
import { frontmatterField, parseFrontmatter } from './frontmatter';
import type { MemoryFolderAnalyzer } from './memoryFolderAnalyzer';
import { MemoryFolderResolver, type ResolvedMemoryFolder } from './memoryFolderResolver';
import { SecretMasker } from '../secrets/secretMasker';

export interface MemoryFixServiceOptions {
  readonly home: HomeService;
  /** Every fix lands through it, as one change set. */
  readonly writer: ChangeSetWriter;
  /** Shared with the review, so a plan reads the folder as warm as the page does. */
  readonly analyzer: MemoryFolderAnalyzer;
}

/** A plan sends the texts it changes for the diff; past this many characters in all, the rest go by their line counts. */
const MAX_SHOWN_CHARS = 600_000;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The files a plan read and what they held. */
interface Prepared {
  readonly folder: ResolvedMemoryFolder;
  readonly input: FixInput;
  readonly hashes: ReadonlyMap<string, string | null>;
}

function decode(path: string, bytes: Buffer): string {
  if (bytes.includes(0)) throw new CodedError('INVALID_INPUT', `${path} is not a text file; it is not changed here`);
  try {
    const text = UTF8.decode(bytes);
    return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf && text.charCodeAt(0) !== 0xfeff ? `\uFEFF${text}` : text;
  } catch {
    throw new CodedError('INVALID_INPUT', `${path} is not valid UTF-8; changing it here would change its bytes`);
  }
}

const SECRET_FIXES = new Set<MemoryFix['kind']>(['mask-secret', 'remove-secret-line']);

/** Changes land in this order: new files, then edits, then deletions, so an interrupted set never loses a memory. */
function landingOrder(change: { readonly base: string | null; readonly after: string | null }): number {
  return change.base === null ? 0 : change.after !== null ? 1 : 2;
}

/**
 * Cures for memory findings: plans a set of fixes over the files as they are now (pure planning in
 * shared/memory/fixes), shows the diff of every file it would change, and applies exactly that plan through the
 * change-set writer as one change set — one entry in history, one undo — refused as a CONFLICT (with both
 * versions) when any file it read changed since it was shown.
 */
export class MemoryFixService {
  private readonly resolver: MemoryFolderResolver;
  private readonly masker = new SecretMasker();

  constructor(private readonly options: MemoryFixServiceOptions) {
    this.resolver = new MemoryFolderResolver(options.home);
  }

  /** What the fixes would change, file by file; writes nothing. */
  async plan(ref: MemoryFolderRef, fixes: readonly MemoryFix[]): Promise<MemoryFixPlan> {
    const prepared = await this.prepare(ref, fixes);
    const result = planFixes(prepared.input, fixes);
    const refusal = await this.refusalOf(prepared, result);
    // A file the planner chose to create (the overflow's) is a base too: it must still not exist when applied.
    const hashes = new Map(prepared.hashes);
    for (const path of result.changes.keys())
      if (!hashes.has(path)) hashes.set(path, (await this.options.writer.readCurrent(prepared.folder.root, path)).hash);
    const files: PlannedFileChange[] = [];
    let budget = MAX_SHOWN_CHARS;
    for (const [path, after] of result.changes) {
      const before = prepared.input.texts.get(path) ?? null;
      const size = (before?.length ?? 0) + (after?.length ?? 0);
      const shown = size <= budget;
      if (shown) budget -= size;
      files.push({
        path,
        change: before === null ? 'add' : after === null ? 'delete' : 'modify',
        baseHash: hashes.get(path) ?? null,
        before: shown && before !== null ? (await this.masker.mask(before)).text : null,
        after: shown && after !== null ? (await this.masker.mask(after)).text : null,
        shown,
        ...lineStats(before, after),
      });
    }
    return {
      fixes: result.fixes,
      outcomes: result.outcomes,
      files,
      bases: [...hashes].map(([path, hash]) => ({ path, hash })),
      summary: summarizeFixes(result.outcomes.filter((o) => o.applied).map((o) => o.fix)),
      refusal,
    };
  }

  /**
   * Applies fixes as a plan showed them (`fixes` as the plan returned them, `bases` its bases): every file must still
   * be the version the plan read, else CONFLICT with both versions and nothing written.
   */
  async apply(
    ref: MemoryFolderRef,
    request: { readonly fixes: readonly MemoryFix[]; readonly bases: readonly { readonly path: string; readonly hash: string | null }[] },
  ): Promise<MemoryChangeResult> {
    const prepared = await this.prepare(ref, request.fixes);
    const seen = new Map(request.bases.map((base) => [base.path, base.hash]));
    for (const [path, hash] of prepared.hashes) {
      const expected = seen.get(path);
      if (expected !== undefined && expected !== hash) {
        const current = await this.options.writer.readCurrent(prepared.folder.root, path);
        throw conflictError(path, expected ?? ABSENT, current.bytes);
      }
    }
    const result = planFixes(prepared.input, request.fixes);
    const refusal = await this.refusalOf(prepared, result);
    if (refusal) throw new CodedError('FORBIDDEN', refusal);
    if (result.changes.size === 0) throw new CodedError('INVALID_INPUT', 'Nothing to change: every fix has already been made');
    const planned: { path: string; base: string | null; after: string | null }[] = [];
    for (const [path, after] of result.changes) {
      if (!seen.has(path))
        throw new CodedError('CONFLICT', `The fix now changes ${path}, which the plan you reviewed did not; plan it again`);
      planned.push({ path, base: prepared.hashes.get(path) ?? null, after });
    }
    const changes: FileChange[] = planned.sort((a, b) => landingOrder(a) - landingOrder(b));
    const summary = summarizeFixes(result.outcomes.filter((o) => o.applied).map((o) => o.fix));
    const { changeSetId } = await this.options.writer.apply({ root: prepared.folder.root, changes, cause: 'app-edit', summary });
    if (changeSetId === null) throw new CodedError('INTERNAL', 'The change landed without a history record');
    const main =
      planned.find((change) => change.after !== null && !change.path.endsWith(INDEX_FILE_NAME)) ?? planned.find((c) => c.after !== null);
    return {
      changeSetId,
      description: summary,
      relativePath: main?.path ?? null,
      hash: main?.after != null ? contentHash(Buffer.from(main.after, 'utf8')) : null,
    };
  }

  /** Reads every file the fixes need, and what the planner must know of the folder. */
  private async prepare(ref: MemoryFolderRef, fixes: readonly MemoryFix[]): Promise<Prepared> {
    const folder = await this.resolver.resolve(ref);
    const { writer, analyzer } = this.options;
    const texts = new Map<string, string | null>();
    const hashes = new Map<string, string | null>();
    for (const path of filesNeeded(folder.kind, fixes)) {
      const current = await writer.readCurrent(folder.root, path);
      texts.set(path, current.bytes ? decode(path, current.bytes) : null);
      hashes.set(path, current.hash);
    }
    const analysis = await analyzer.analyze({
      memoryDir: folder.memoryDir,
      kind: folder.kind,
      projectPath: folder.projectPath,
      boundary: folder.kind === 'agent' ? folder.root.boundary : null,
    });
    const headers = new Map<string, FixFileHeader>();
    const dates = new Map<string, string>();
    for (const file of analysis.files) {
      headers.set(file.relativePath, {
        name: file.text.name,
        description: file.text.description,
        type: file.text.type,
        rawType: file.text.rawType,
      });
      dates.set(file.relativePath, localDateOf(file.mtimeMs));
    }
    const secretSpans = new Map<string, readonly SecretSpan[]>();
    for (const fix of fixes) {
      if (!SECRET_FIXES.has(fix.kind) || !('file' in fix) || secretSpans.has(fix.file)) continue;
      const text = texts.get(fix.file);
      if (text) secretSpans.set(fix.file, await this.masker.spans(text));
    }
    const existing = new Set([...analysis.files.map((f) => f.relativePath), ...analysis.indexes.map((i) => i.relativePath)]);
    for (const [path, text] of texts) if (text !== null) existing.add(path);
    return { folder, hashes, input: { folderKind: folder.kind, texts, existing, headers, dates, secretSpans } };
  }

  /**
   * Why the planned change cannot be written, or null: a frontmatter that would not read back as planned, a secret
   * still in a file whose secret was to go, or anything the writer refuses by content (a secret into team memory).
   */
  private async refusalOf(prepared: Prepared, result: FixResult): Promise<string | null> {
    for (const [path, fields] of result.expectedFields) {
      const after = result.changes.get(path);
      if (typeof after !== 'string') continue;
      const parsed = parseFrontmatter(after);
      if (parsed.error !== null || fields.some(([key, value]) => frontmatterField(parsed.data, key) !== value))
        return `The frontmatter of ${path} cannot be changed safely; edit it by hand`;
    }
    const fixedLines = new Map<string, Set<number>>();
    for (const outcome of result.outcomes) {
      const fix = outcome.fix;
      if (outcome.applied && (fix.kind === 'mask-secret' || fix.kind === 'remove-secret-line'))
        fixedLines.set(fix.file, (fixedLines.get(fix.file) ?? new Set()).add(fix.line));
    }
    for (const [path, lines] of fixedLines) {
      const before = prepared.input.texts.get(path) ?? '';
      const after = result.changes.get(path);
      if (typeof after !== 'string') continue;
      const fixed = (prepared.input.secretSpans.get(path) ?? [])
        .filter((span) => lines.has(lineAt(before, span.start)))
        .map((span) => before.slice(span.start, span.end));
      const left = (await this.masker.spans(after)).map((span) => after.slice(span.start, span.end));
      if (left.some((secret) => fixed.includes(secret))) return `A secret in ${path} is still there after the fix; remove its line instead`;
    }
    for (const [path, after] of result.changes) {
      if (after === null) continue;
      const refused = await this.options.writer.contentRefusal(prepared.folder.root, path, Buffer.from(after, 'utf8'));
      if (refused) return refused.message;
    }
    return null;
  }
}
