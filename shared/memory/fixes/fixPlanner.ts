/**
 * Plans a set of memory fixes over the texts of the files they touch: pure, so the UI's preview, the applied change
 * and `ccmem doctor --fix` are the same function of the same texts. Fixes that point at a place in a file (a line,
 * a secret) are edits of the text as it was found and land together; fixes that work on content (a field, a
 * pointer, a merge, a prune, the overflow) then run one after another over the result.
 */
import type { MemoryType } from '../../model/memory';
import { removePointersTo, retargetPointers } from '../indexEdits';
import type { SecretSpan } from '../secretMask';
import { absoluteDateEdits } from './absoluteDates';
import { mergedText } from './duplicateMerge';
import { suggestDescription, suggestName, suggestType, withFields } from './frontmatterFixes';
import {
  indexFolderOf,
  indexFor,
  moveOverflow,
  overflowFileName,
  pointsAt,
  removeLinkEdit,
  retargetLinkEdit,
  shortenLineEdit,
  titleFromPath,
  trimOverflow,
  withPointer,
} from './indexFixes';
import type { FixOutcome, MemoryFix } from './memoryFix';
import { maskSecretEdits, removeSecretLineEdit } from './secretFixes';
import { applyEdits, lineRange, type TextEdit } from './textEdits';

/** What the engine knows of a topic file's frontmatter. */
export interface FixFileHeader {
  readonly name: string | null;
  readonly description: string | null;
  readonly type: MemoryType | null;
  readonly rawType: string | null;
}

export interface FixInput {
  readonly folderKind: 'project' | 'agent';
  /** Every file `filesNeeded` named, as found: its text, or null when it does not exist. */
  readonly texts: ReadonlyMap<string, string | null>;
  /** Every `*.md` in the folder (relative paths). */
  readonly existing: ReadonlySet<string>;
  readonly headers: ReadonlyMap<string, FixFileHeader>;
  /** Each topic file's date (its mtime's local day, `YYYY-MM-DD`), for relative dates. */
  readonly dates: ReadonlyMap<string, string>;
  /** Where the secrets are in each file's text, for the secret cures. */
  readonly secretSpans: ReadonlyMap<string, readonly SecretSpan[]>;
}

export interface FixResult {
  /** The fixes with the values the planner chose filled in. */
  readonly fixes: readonly MemoryFix[];
  readonly outcomes: readonly FixOutcome[];
  /** Every file whose text changes: the new text, or null when it is deleted. */
  readonly changes: ReadonlyMap<string, string | null>;
  /**
   * The frontmatter fields each patched file must read back with (an empty list: it must still parse): the engine
   * parses every one, since only it holds the YAML parser.
   */
  readonly expectedFields: ReadonlyMap<string, readonly (readonly [string, string])[]>;
}

const INDEXES = ['MEMORY.md', 'team/MEMORY.md'];

/** The files a set of fixes reads, the indexes always among them: the engine loads these for `planFixes`. */
export function filesNeeded(folderKind: 'project' | 'agent', fixes: readonly MemoryFix[]): string[] {
  const paths = new Set(folderKind === 'project' ? INDEXES : INDEXES.slice(0, 1));
  for (const fix of fixes) {
    switch (fix.kind) {
      case 'remove-pointer':
      case 'retarget-pointer':
      case 'shorten-line':
      case 'move-overflow':
      case 'trim-overflow':
        paths.add(fix.index);
        if (fix.kind === 'move-overflow' && fix.into) paths.add(fix.into);
        break;
      case 'merge-duplicates':
        paths.add(fix.keep);
        paths.add(fix.drop);
        break;
      default:
        paths.add(fix.file);
    }
  }
  return [...paths];
}

/** The fix with the values it left open chosen from the files, so it can be shown and applied as is. */
function resolve(fix: MemoryFix, input: FixInput, draft: ReadonlyMap<string, string | null>): MemoryFix {
  const text = 'file' in fix ? (draft.get(fix.file) ?? input.texts.get(fix.file) ?? null) : null;
  const header = 'file' in fix ? input.headers.get(fix.file) : undefined;
  switch (fix.kind) {
    case 'fill-description':
      return fix.value !== undefined || text === null ? fix : { ...fix, value: suggestDescription(fix.file, text) };
    case 'fill-type':
      return fix.value !== undefined ? fix : { ...fix, value: suggestType(fix.file, header?.rawType ?? null) };
    case 'add-frontmatter':
      return text === null
        ? fix
        : {
            ...fix,
            name: fix.name ?? suggestName(fix.file, text),
            description: fix.description ?? suggestDescription(fix.file, text),
            type: fix.type ?? suggestType(fix.file, header?.rawType ?? null),
          };
    case 'absolute-date': {
      const date = fix.date ?? input.dates.get(fix.file);
      return date === undefined ? fix : { ...fix, date };
    }
    case 'move-overflow': {
      const taken = (path: string) => input.existing.has(path) || (draft.get(path) ?? null) !== null;
      return fix.into !== undefined ? fix : { ...fix, into: overflowFileName(indexFolderOf(fix.index), taken) };
    }
    default:
      return fix;
  }
}

type Planned = { readonly applied: true } | { readonly applied: false; readonly note: string };
const done: Planned = { applied: true };
const skipped = (note: string): Planned => ({ applied: false, note });

/** The place-based edits of a fix on the text as found, or why there are none. */
function editsOf(fix: MemoryFix, input: FixInput): { path: string; edits: TextEdit[] } | string | null {
  const read = (path: string) => input.texts.get(path) ?? null;
  switch (fix.kind) {
    case 'remove-pointer':
    case 'retarget-pointer':
    case 'shorten-line': {
      const text = read(fix.index);
      if (text === null) return `${fix.index} does not exist`;
      const folder = indexFolderOf(fix.index);
      const edit =
        fix.kind === 'remove-pointer'
          ? removeLinkEdit(text, folder, fix.line, fix.target)
          : fix.kind === 'retarget-pointer'
            ? input.existing.has(fix.to)
              ? retargetLinkEdit(text, folder, fix.line, fix.target, fix.to)
              : null
            : shortenLineEdit(text, folder, fix.line);
      if (edit) return { path: fix.index, edits: [edit] };
      if (fix.kind === 'retarget-pointer' && !input.existing.has(fix.to)) return `${fix.to} does not exist`;
      return fix.kind === 'shorten-line'
        ? `Line ${fix.line} of ${fix.index} is short enough or cannot be cut without breaking a link`
        : `Line ${fix.line} of ${fix.index} no longer points at ${fix.target}`;
    }
    case 'mask-secret':
    case 'remove-secret-line': {
      const text = read(fix.file);
      if (text === null) return `${fix.file} does not exist`;
      const spans = input.secretSpans.get(fix.file) ?? [];
      const edits = fix.kind === 'mask-secret' ? maskSecretEdits(text, spans, fix.line) : [removeSecretLineEdit(text, spans, fix.line)];
      const real = edits.filter((edit): edit is TextEdit => edit !== null);
      return real.length > 0 ? { path: fix.file, edits: real } : `No secret was found on line ${fix.line} of ${fix.file}`;
    }
    case 'absolute-date': {
      const text = read(fix.file);
      if (text === null) return `${fix.file} does not exist`;
      const range = lineRange(text, fix.line);
      if (!range || fix.date === undefined) return `Line ${fix.line} of ${fix.file} cannot be dated`;
      const edits = absoluteDateEdits(text.slice(range.start, range.contentEnd), fix.date).map((edit) => ({
        ...edit,
        start: edit.start + range.start,
        end: edit.end + range.start,
      }));
      return edits.length > 0 ? { path: fix.file, edits } : `Line ${fix.line} of ${fix.file} holds no relative date`;
    }
    default:
      return null;
  }
}

const overlapping = (a: TextEdit, b: TextEdit) => a.start < b.end && b.start < a.end;

/** Content-based fixes, in the order that leaves the indexes right: fields, merges and prunes, then pointers, then overflow. */
const CONTENT_ORDER: Readonly<Partial<Record<MemoryFix['kind'], number>>> = {
  'add-frontmatter': 0,
  'fill-description': 0,
  'fill-type': 0,
  'merge-duplicates': 1,
  prune: 1,
  'add-pointer': 2,
  'move-overflow': 3,
  'trim-overflow': 3,
};

/** Plans `fixes` over the files as `input` found them. Fixes that have nothing to do say why and change nothing. */
export function planFixes(input: FixInput, fixes: readonly MemoryFix[]): FixResult {
  const draft = new Map<string, string | null>(input.texts);
  const resolved = fixes.map((fix) => resolve(fix, input, draft));
  const results = new Array<Planned>(resolved.length);

  // Place-based edits first, all against the text as found; one that overlaps an edit already taken is left out.
  const accepted = new Map<string, TextEdit[]>();
  resolved.forEach((fix, index) => {
    const planned = editsOf(fix, input);
    if (planned === null) return;
    if (typeof planned === 'string') {
      results[index] = skipped(planned);
      return;
    }
    const taken = accepted.get(planned.path) ?? [];
    if (planned.edits.some((edit) => taken.some((other) => overlapping(edit, other)))) {
      results[index] = skipped(`Another fix already changes that place in ${planned.path}`);
      return;
    }
    accepted.set(planned.path, [...taken, ...planned.edits]);
    results[index] = done;
  });
  for (const [path, edits] of accepted) draft.set(path, applyEdits(input.texts.get(path) ?? '', edits).text);

  const content = resolved
    .map((fix, index) => ({ fix, index }))
    .filter(({ index }) => results[index] === undefined)
    .sort((a, b) => (CONTENT_ORDER[a.fix.kind] ?? 0) - (CONTENT_ORDER[b.fix.kind] ?? 0) || a.index - b.index);
  const expectedFields = new Map<string, (readonly [string, string])[]>();
  for (const { fix, index } of content) results[index] = applyContentFix(fix, input, draft, expectedFields);

  const changes = new Map<string, string | null>();
  for (const [path, text] of draft) if (text !== (input.texts.get(path) ?? null)) changes.set(path, text);
  return {
    fixes: resolved,
    outcomes: resolved.map((fix, index) => {
      const result = results[index];
      return { fix, applied: result.applied, note: result.applied ? null : result.note };
    }),
    changes,
    expectedFields,
  };
}

function applyContentFix(
  fix: MemoryFix,
  input: FixInput,
  draft: Map<string, string | null>,
  expectedFields: Map<string, (readonly [string, string])[]>,
): Planned {
  const expect = (path: string, fields: readonly (readonly [string, string])[]) =>
    expectedFields.set(path, [...(expectedFields.get(path) ?? []), ...fields]);
  const read = (path: string) => draft.get(path) ?? null;
  switch (fix.kind) {
    case 'add-frontmatter':
    case 'fill-description':
    case 'fill-type': {
      const text = read(fix.file);
      if (text === null) return skipped(`${fix.file} does not exist`);
      const header = input.headers.get(fix.file);
      // Adding frontmatter sets only the fields the file lacks; a value already there is never replaced.
      const fields: [string, string][] =
        fix.kind === 'add-frontmatter'
          ? (
              [
                ['name', header?.name ? null : (fix.name ?? '')],
                ['description', header?.description?.trim() ? null : (fix.description ?? '')],
                ['type', header?.type || header?.rawType ? null : (fix.type ?? '')],
              ] as const
            ).flatMap(([key, value]): [string, string][] => (value === null ? [] : [[key, value]]))
          : fix.kind === 'fill-description'
            ? [['description', fix.value ?? '']]
            : [['type', fix.value ?? '']];
      if (fix.kind === 'fill-description' && header?.description?.trim()) return skipped(`${fix.file} already has a description`);
      if (fix.kind === 'fill-type' && header?.type) return skipped(`${fix.file} already has the type ${header.type}`);
      if (fields.length === 0) return skipped(`${fix.file} already has a name, description and type`);
      if (fields.some(([, value]) => value.trim() === '' || /[\r\n]/.test(value)))
        return skipped('Each value must be one line, and not empty');
      const patched = withFields(text, fields);
      if (patched === null) return skipped(`The frontmatter of ${fix.file} cannot be changed safely; edit it by hand`);
      draft.set(fix.file, patched);
      expect(fix.file, fields);
      return done;
    }
    case 'add-pointer': {
      if (read(fix.file) === null) return skipped(`${fix.file} does not exist`);
      const index = indexFor(input.folderKind, fix.file);
      const indexText = read(index.path) ?? '';
      if (pointsAt(indexText, index.folder, fix.file)) return skipped(`${index.path} already points at ${fix.file}`);
      const header = input.headers.get(fix.file);
      const title = header?.name?.trim() || titleFromPath(fix.file);
      draft.set(index.path, withPointer(indexText, index.folder, fix.file, title, header?.description ?? ''));
      return done;
    }
    case 'prune': {
      if (read(fix.file) === null) return skipped(`${fix.file} does not exist`);
      dropPointers(input.folderKind, draft, fix.file, null);
      draft.set(fix.file, null);
      return done;
    }
    case 'merge-duplicates': {
      const keep = read(fix.keep);
      const drop = read(fix.drop);
      if (keep === null || drop === null) return skipped(`${keep === null ? fix.keep : fix.drop} does not exist`);
      if (fix.keep === fix.drop) return skipped('A file cannot be merged into itself');
      if (fix.keep.startsWith('team/') !== fix.drop.startsWith('team/') && input.folderKind === 'project')
        return skipped('One is team memory and the other private: merge them by hand, so nothing private is shared by accident');
      let merged = mergedText(keep, drop);
      const dropDescription = input.headers.get(fix.drop)?.description?.trim();
      const described =
        !input.headers.get(fix.keep)?.description?.trim() && dropDescription
          ? withFields(merged, [['description', dropDescription]])
          : null;
      merged = described ?? merged;
      draft.set(fix.keep, merged);
      expect(fix.keep, described !== null && dropDescription ? [['description', dropDescription]] : []);
      dropPointers(input.folderKind, draft, fix.drop, fix.keep);
      draft.set(fix.drop, null);
      return done;
    }
    case 'move-overflow':
    case 'trim-overflow': {
      const text = read(fix.index);
      if (text === null) return skipped(`${fix.index} does not exist`);
      if (fix.kind === 'trim-overflow') {
        const trimmed = trimOverflow(text);
        if (trimmed === null) return skipped(`${fix.index} loads whole: nothing is past the cut`);
        draft.set(fix.index, trimmed);
        return done;
      }
      if (fix.into === undefined || read(fix.into) !== null || input.existing.has(fix.into))
        return skipped(`${fix.into ?? 'The overflow file'} already exists`);
      const moved = moveOverflow(text, indexFolderOf(fix.index), fix.into);
      if (moved === null) return skipped(`${fix.index} loads whole: nothing is past the cut`);
      draft.set(fix.index, moved.index);
      draft.set(fix.into, moved.overflow);
      return done;
    }
    default:
      return skipped(`${fix.kind} is not a content fix`);
  }
}

/**
 * The pointer lines of a file that goes: they follow `to` when it is given and the index does not point at it
 * already, else they are removed (lines that also point elsewhere stay).
 */
function dropPointers(folderKind: 'project' | 'agent', draft: Map<string, string | null>, file: string, to: string | null): void {
  for (const path of folderKind === 'project' ? INDEXES : INDEXES.slice(0, 1)) {
    const text = draft.get(path) ?? null;
    if (text === null) continue;
    const folder = indexFolderOf(path);
    const next =
      to !== null && !pointsAt(text, folder, to)
        ? retargetPointers(text, folder, file, to).text
        : removePointersTo(text, folder, file).text;
    if (next !== text) draft.set(path, next);
  }
}
