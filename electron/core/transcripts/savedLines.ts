import { NO_IDS, NO_TOOL_USES, type IndexedLine, type IndexedToolUse } from '../../../shared/transcript/indexedLine';
import type { UnreadableReason } from '../../../shared/transcript/transcriptEntry';
import type { SectionReader } from '../fs/binarySections';

export const UNREADABLE_CODES: readonly (UnreadableReason | null)[] = [null, 'invalid-json', 'invalid-utf8', 'binary', 'too-long'];
export const SIDECHAIN = 1;
export const META = 2;
export const COMPACT_SUMMARY = 4;
export const OWN_CONTENT = 8;

/** The string fields of `IndexedLine`, in the order their columns are stored. */
export const STRING_COLUMNS = [
  'uuid',
  'parentUuid',
  'logicalParentUuid',
  'timestamp',
  'subtype',
  'agentId',
  'messageId',
  'resultAgentId',
  'progressType',
  'progressAgentId',
  'parentToolUseId',
  'attachmentType',
  'attachmentToolUseId',
] as const satisfies readonly (keyof IndexedLine)[];

type StringColumn = (typeof STRING_COLUMNS)[number];

/** The columns of a saved index's lines, viewed in place in the bytes read (see `lineIndexCodec.ts`). */
export interface LineColumns {
  readonly strings: SectionReader;
  readonly numbers: Int32Array;
  readonly offsets: Float64Array;
  readonly lengths: Float64Array;
  readonly flags: Uint8Array;
  readonly unreadable: Uint8Array;
  readonly types: Int32Array;
  readonly text: Readonly<Record<StringColumn, Int32Array>>;
  readonly toolUseStarts: Int32Array;
  readonly toolUseIds: Int32Array;
  readonly toolUseNames: Int32Array;
  readonly resultStarts: Int32Array;
  readonly resultIds: Int32Array;
}

/**
 * One line of a saved index, read from its columns when a field is asked for. A reopened transcript has tens of
 * thousands of lines and the first page needs a few hundred of them: making every line a full object up front
 * (and slicing its strings) was most of a reopen's time, and its garbage collection most of the rest.
 */
export class SavedLine implements IndexedLine {
  private uses: readonly IndexedToolUse[] | null = null;
  private results: readonly string[] | null = null;

  constructor(
    private readonly columns: LineColumns,
    private readonly at: number,
  ) {}

  private text(column: StringColumn): string | null {
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
    return this.columns.strings.string(this.columns.types[this.at]) as string;
  }
  get uuid(): string | null {
    return this.text('uuid');
  }
  get parentUuid(): string | null {
    return this.text('parentUuid');
  }
  get logicalParentUuid(): string | null {
    return this.text('logicalParentUuid');
  }
  get timestamp(): string | null {
    return this.text('timestamp');
  }
  get subtype(): string | null {
    return this.text('subtype');
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
  get agentId(): string | null {
    return this.text('agentId');
  }
  get messageId(): string | null {
    return this.text('messageId');
  }
  get toolUses(): readonly IndexedToolUse[] {
    if (this.uses === null) {
      const { toolUseStarts, toolUseIds, toolUseNames, strings } = this.columns;
      const from = toolUseStarts[this.at];
      const to = toolUseStarts[this.at + 1];
      const uses: IndexedToolUse[] = [];
      for (let k = from; k < to; k++)
        uses.push({ id: strings.string(toolUseIds[k]) as string, name: strings.string(toolUseNames[k]) as string });
      this.uses = uses.length === 0 ? NO_TOOL_USES : uses;
    }
    return this.uses;
  }
  get toolResultIds(): readonly string[] {
    if (this.results === null) {
      const { resultStarts, resultIds, strings } = this.columns;
      const ids: string[] = [];
      for (let k = resultStarts[this.at]; k < resultStarts[this.at + 1]; k++) ids.push(strings.string(resultIds[k]) as string);
      this.results = ids.length === 0 ? NO_IDS : ids;
    }
    return this.results;
  }
  get hasOwnContent(): boolean {
    return (this.columns.flags[this.at] & OWN_CONTENT) !== 0;
  }
  get resultAgentId(): string | null {
    return this.text('resultAgentId');
  }
  get progressType(): string | null {
    return this.text('progressType');
  }
  get progressAgentId(): string | null {
    return this.text('progressAgentId');
  }
  get parentToolUseId(): string | null {
    return this.text('parentToolUseId');
  }
  get attachmentType(): string | null {
    return this.text('attachmentType');
  }
  get attachmentToolUseId(): string | null {
    return this.text('attachmentToolUseId');
  }
  get unreadable(): UnreadableReason | null {
    return UNREADABLE_CODES[this.columns.unreadable[this.at]];
  }
}
