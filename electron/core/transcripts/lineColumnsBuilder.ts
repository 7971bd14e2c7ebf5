import { NO_IDS, NO_TOOL_USES, type IndexedLine, type IndexedToolUse } from '../../../shared/transcript/indexedLine';
import type { UnreadableReason } from '../../../shared/transcript/transcriptEntry';
import type { SectionStrings, SectionWriter } from '../fs/binarySections';
import { growableArray, reserve, type GrowableArray } from '../fs/growableArrays';
import { Utf8StringTable } from '../fs/utf8StringTable';
import { COMPACT_SUMMARY, META, OWN_CONTENT, SIDECHAIN, STRING_COLUMNS, UNREADABLE_CODES } from './savedLines';
import type { LineStore } from './TranscriptIndex';

/**
 * The most lines (and tool uses, and result ids) a builder holds, reserved, not committed (see `growableArrays.ts`):
 * more would make an index over the saved indexes' whole room (256 MB at about 80 bytes a line). A transcript with more
 * is not kept (the keeper skips it); the reservations stay a few hundred megabytes of address space per builder.
 */
const MAX_LINES = 1 << 22;
/** The columns grow this many elements at a time. */
const STEP = 16 * 1024;

/**
 * A transcript's line index kept as the saved format's columns while the lines are read (`TranscriptIndex` hands
 * each scanned line to `keep` and holds the small view it returns): the line index keeper's way to index a big
 * transcript (a transcript replaced while it is read starts a new builder). Kept as objects, the 130,000 lines of a 500 MB transcript took about 440 bytes each with their strings,
 * all promoted to the old generation, and encoding them built the same columns and string table again beside them;
 * here a line is about 80 bytes of columns and a view, its strings UTF-8 in one table, and the encoder writes these
 * very columns and table (`writeColumns`), which hold what it would have made of the same lines: strings are numbered
 * in the order the encoder asks for them (each line's type, its string fields, its tool uses, its result ids).
 */
export class LineColumnsBuilder implements LineStore {
  readonly strings = new Utf8StringTable();
  count = 0;
  readonly numbers = growableArray(Int32Array, MAX_LINES);
  readonly offsets = growableArray(Float64Array, MAX_LINES);
  readonly lengths = growableArray(Float64Array, MAX_LINES);
  readonly flags = growableArray(Uint8Array, MAX_LINES);
  readonly unreadable = growableArray(Uint8Array, MAX_LINES);
  readonly types = growableArray(Int32Array, MAX_LINES);
  readonly text = STRING_COLUMNS.map(() => growableArray(Int32Array, MAX_LINES));
  /** Where each line's tool uses and result ids start in their lists, and (one more) where the last one's end. */
  readonly toolUseStarts = growableArray(Int32Array, MAX_LINES + 1);
  readonly toolUseIds = growableArray(Int32Array, MAX_LINES);
  readonly toolUseNames = growableArray(Int32Array, MAX_LINES);
  toolUseCount = 0;
  readonly resultStarts = growableArray(Int32Array, MAX_LINES + 1);
  readonly resultIds = growableArray(Int32Array, MAX_LINES);
  resultCount = 0;
  /** The columns of one line each, grown together. */
  private readonly lineColumns: readonly GrowableArray[] = [
    this.numbers,
    this.offsets,
    this.lengths,
    this.flags,
    this.unreadable,
    this.types,
    ...this.text,
    this.toolUseStarts,
    this.resultStarts,
  ];
  /** Types are few and read for every line by the tree and the rows: decoded once each. */
  private readonly typeNames = new Map<number, string>();

  keep(line: IndexedLine): IndexedLine {
    return new BuiltLine(this, this.add(line));
  }

  keepAll(lines: readonly IndexedLine[]): IndexedLine[] {
    return lines.map((line) => this.keep(line));
  }

  /** The builder whose lines these are, all of them in order (what `writeColumns` writes), or null. */
  static of(lines: readonly IndexedLine[]): LineColumnsBuilder | null {
    const first = lines[0];
    return first instanceof BuiltLine && first.columns.holds(lines) ? first.columns : null;
  }

  private holds(lines: readonly IndexedLine[]): boolean {
    if (lines.length !== this.count) return false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!(line instanceof BuiltLine) || line.columns !== this || line.at !== i) return false;
    }
    return true;
  }

  /** A string table for the encoder: this builder's strings, then any others it asks for. */
  sectionStrings(): SectionStrings {
    return new BuiltStrings(this.strings);
  }

  /** The lines' sections, as `lineIndexCodec`'s `writeLines` writes them, viewed in place. */
  writeColumns(out: SectionWriter): void {
    const n = this.count;
    out.int32(this.numbers.subarray(0, n));
    out.float64(this.offsets.subarray(0, n));
    out.float64(this.lengths.subarray(0, n));
    out.uint8(this.flags.subarray(0, n)).uint8(this.unreadable.subarray(0, n)).int32(this.types.subarray(0, n));
    for (const column of this.text) out.int32(column.subarray(0, n));
    out
      .int32(this.toolUseStarts.subarray(0, n + 1))
      .int32(this.toolUseIds.subarray(0, this.toolUseCount))
      .int32(this.toolUseNames.subarray(0, this.toolUseCount))
      .int32(this.resultStarts.subarray(0, n + 1))
      .int32(this.resultIds.subarray(0, this.resultCount));
  }

  typeOf(at: number): string {
    const ref = this.types[at];
    let name = this.typeNames.get(ref);
    if (name === undefined) {
      name = this.strings.string(ref) as string;
      this.typeNames.set(ref, name);
    }
    return name;
  }

  private add(line: IndexedLine): number {
    // One more than the lines: the starts' columns hold where the last line's lists end.
    for (const column of this.lineColumns) reserve(column, this.count + 2, STEP);
    const i = this.count++;
    const { strings } = this;
    this.numbers[i] = line.line;
    this.offsets[i] = line.offset;
    this.lengths[i] = line.length;
    this.flags[i] =
      (line.isSidechain ? SIDECHAIN : 0) |
      (line.isMeta ? META : 0) |
      (line.isCompactSummary ? COMPACT_SUMMARY : 0) |
      (line.hasOwnContent ? OWN_CONTENT : 0);
    const unreadable = UNREADABLE_CODES.indexOf(line.unreadable);
    if (unreadable < 0) throw new Error(`no code for ${String(line.unreadable)}`);
    this.unreadable[i] = unreadable;
    this.types[i] = strings.ref(line.type);
    for (let column = 0; column < STRING_COLUMNS.length; column++) this.text[column][i] = strings.ref(line[STRING_COLUMNS[column]]);
    for (const use of line.toolUses) {
      reserve(this.toolUseIds, this.toolUseCount + 1, STEP);
      reserve(this.toolUseNames, this.toolUseCount + 1, STEP);
      this.toolUseIds[this.toolUseCount] = strings.ref(use.id);
      this.toolUseNames[this.toolUseCount] = strings.ref(use.name);
      this.toolUseCount++;
    }
    this.toolUseStarts[i + 1] = this.toolUseCount;
    for (const id of line.toolResultIds) {
      reserve(this.resultIds, this.resultCount + 1, STEP);
      this.resultIds[this.resultCount++] = strings.ref(id);
    }
    this.resultStarts[i + 1] = this.resultCount;
    return i;
  }
}

/** The builder's strings, then those only the tree, views and tool maps name (numbered after them, in that order). */
class BuiltStrings implements SectionStrings {
  private readonly more = new Map<string, number>();

  constructor(private readonly table: Utf8StringTable) {}

  ref(value: string | null): number {
    if (value === null) return -1;
    const ref = this.table.find(value);
    if (ref >= 0) return ref;
    let id = this.more.get(value);
    if (id === undefined) {
      id = this.table.count + this.more.size;
      this.more.set(value, id);
    }
    return id;
  }

  finish(): { readonly lengths: Int32Array; readonly text: readonly Uint8Array[] } {
    const more = [...this.more.keys()];
    const own = this.table.utf16Lengths();
    const lengths = new Int32Array(own.length + more.length);
    lengths.set(own);
    more.forEach((value, i) => (lengths[own.length + i] = value.length));
    return { lengths, text: this.table.textParts(more) };
  }
}

/**
 * One line of a `LineColumnsBuilder`, read from its columns when a field is asked for. Its getters repeat `SavedLine`'s
 * over the builder's columns on purpose: one base class for both measured about 2 ms slower on a reopen's first page
 * (medians of five alternated runs of the `largest transcript` group, 48.1 against 45.9 ms, load ≈ 2), the path whose
 * target is ≤ 50 ms.
 */
export class BuiltLine implements IndexedLine {
  constructor(
    readonly columns: LineColumnsBuilder,
    readonly at: number,
  ) {}

  private text(column: number): string | null {
    return this.columns.strings.string(this.columns.text[column][this.at]);
  }

  get line(): number {
    return this.columns.numbers[this.at];
  }
  get offset(): number {
    return this.columns.offsets[this.at];
  }
  get length(): number {
    return this.columns.lengths[this.at];
  }
  get type(): string {
    return this.columns.typeOf(this.at);
  }
  get uuid(): string | null {
    return this.text(0);
  }
  get parentUuid(): string | null {
    return this.text(1);
  }
  get logicalParentUuid(): string | null {
    return this.text(2);
  }
  get timestamp(): string | null {
    return this.text(3);
  }
  get subtype(): string | null {
    return this.text(4);
  }
  get agentId(): string | null {
    return this.text(5);
  }
  get messageId(): string | null {
    return this.text(6);
  }
  get resultAgentId(): string | null {
    return this.text(7);
  }
  get progressType(): string | null {
    return this.text(8);
  }
  get progressAgentId(): string | null {
    return this.text(9);
  }
  get parentToolUseId(): string | null {
    return this.text(10);
  }
  get attachmentType(): string | null {
    return this.text(11);
  }
  get attachmentToolUseId(): string | null {
    return this.text(12);
  }
  get isSidechain(): boolean {
    return (this.columns.flags[this.at] & SIDECHAIN) !== 0;
  }
  get isMeta(): boolean {
    return (this.columns.flags[this.at] & META) !== 0;
  }
  get isCompactSummary(): boolean {
    return (this.columns.flags[this.at] & COMPACT_SUMMARY) !== 0;
  }
  get hasOwnContent(): boolean {
    return (this.columns.flags[this.at] & OWN_CONTENT) !== 0;
  }
  get unreadable(): UnreadableReason | null {
    return UNREADABLE_CODES[this.columns.unreadable[this.at]];
  }
  get toolUses(): readonly IndexedToolUse[] {
    const { toolUseStarts, toolUseIds, toolUseNames, strings } = this.columns;
    const from = toolUseStarts[this.at];
    const to = toolUseStarts[this.at + 1];
    if (from === to) return NO_TOOL_USES;
    const uses: IndexedToolUse[] = [];
    for (let k = from; k < to; k++)
      uses.push({ id: strings.string(toolUseIds[k]) as string, name: strings.string(toolUseNames[k]) as string });
    return uses;
  }
  get toolResultIds(): readonly string[] {
    const { resultStarts, resultIds, strings } = this.columns;
    const from = resultStarts[this.at];
    const to = resultStarts[this.at + 1];
    if (from === to) return NO_IDS;
    const ids: string[] = [];
    for (let k = from; k < to; k++) ids.push(strings.string(resultIds[k]) as string);
    return ids;
  }
}
