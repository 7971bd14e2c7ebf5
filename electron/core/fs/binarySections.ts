import { isAscii } from 'node:buffer';

/**
 * A binary body of typed-array sections and one string table, for caches that must load in a few milliseconds:
 * every section starts on an 8-byte boundary, so a reader views the numbers in place instead of parsing them, and
 * strings are stored once each and named by their number (-1 for null).
 */
const ALIGN = 8;

function padding(length: number): number {
  return (ALIGN - (length % ALIGN)) % ALIGN;
}

/** A body as pieces, in order; `length` is their total. */
export interface SectionParts {
  readonly parts: readonly Uint8Array[];
  readonly length: number;
}

/**
 * Where a writer keeps its strings: each one's number, given as it is first asked for, and at the end the string
 * table's two sections: the UTF-16 lengths in that order, and the strings' UTF-8 run (in pieces).
 */
export interface SectionStrings {
  ref(value: string | null): number;
  finish(): { readonly lengths: Int32Array; readonly text: readonly Uint8Array[] };
}

/** Strings kept as themselves, joined and encoded once at the end. */
export class JoinedStrings implements SectionStrings {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];

  ref(value: string | null): number {
    if (value === null) return -1;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  finish(): { readonly lengths: Int32Array; readonly text: readonly Uint8Array[] } {
    return { lengths: Int32Array.from(this.strings, (value) => value.length), text: [Buffer.from(this.strings.join(''), 'utf8')] };
  }
}

export class SectionWriter {
  private readonly parts: Uint8Array[] = [];
  private length = 0;

  constructor(private readonly strings: SectionStrings = new JoinedStrings()) {}

  /** The number standing for a string (or null) in the sections. */
  ref(value: string | null): number {
    return this.strings.ref(value);
  }

  /** Refs of several strings (a map's keys). */
  refs(values: Iterable<string | null>): Int32Array {
    return Int32Array.from(values, (value) => this.ref(value));
  }

  /** One section, from one or more pieces run together. */
  private push(...pieces: Uint8Array[]): void {
    const byteLength = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
    const header = new Uint8Array(ALIGN);
    new DataView(header.buffer).setUint32(0, byteLength, true);
    this.parts.push(header, ...pieces);
    const pad = padding(byteLength);
    if (pad > 0) this.parts.push(new Uint8Array(pad));
    this.length += ALIGN + byteLength + pad;
  }

  int32(values: Int32Array | readonly number[]): this {
    const array = values instanceof Int32Array ? values : Int32Array.from(values);
    this.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return this;
  }

  float64(values: Float64Array | readonly number[]): this {
    const array = values instanceof Float64Array ? values : Float64Array.from(values);
    this.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return this;
  }

  uint8(values: Uint8Array | readonly number[]): this {
    this.push(values instanceof Uint8Array ? values : Uint8Array.from(values));
    return this;
  }

  /**
   * The sections, then the string table (UTF-16 lengths, then the strings' UTF-8 run), as the pieces to write one after
   * the other: a big transcript's index is tens of megabytes, and joining them would hold it twice.
   */
  finish(): SectionParts {
    const { lengths, text } = this.strings.finish();
    this.int32(lengths);
    this.push(...text);
    return { parts: this.parts, length: this.length };
  }
}

/** Reads what a `SectionWriter` wrote, in the same order; throws on a body that does not fit (cut short, another format). */
export class SectionReader {
  private readonly bytes: Uint8Array;
  private position = 0;
  /** The string table: its text, where each string starts in it, and the strings sliced so far. */
  private readonly text: string;
  private readonly starts: Float64Array;
  private readonly sliced: (string | undefined)[];

  constructor(body: Uint8Array) {
    // Typed views need aligned offsets; a body at an odd place of its buffer is copied once.
    this.bytes = body.byteOffset % ALIGN === 0 ? body : new Uint8Array(body);
    const tableStart = this.tableStart();
    const saved = this.position;
    this.position = tableStart;
    const lengths = this.int32();
    const text = this.uint8();
    this.position = saved;
    // Decoded in one go (one native call), sliced one string at a time when asked for: a reopened transcript's first
    // page needs few of them, and a native call per string cost more than the one decode.
    const table = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    // Ids and timestamps are ASCII, where Latin-1 is the same text and a plain copy.
    this.text = table.toString(isAscii(table) ? 'latin1' : 'utf8');
    this.starts = new Float64Array(lengths.length + 1);
    for (let i = 0; i < lengths.length; i++) this.starts[i + 1] = this.starts[i] + lengths[i];
    if (this.starts[lengths.length] !== this.text.length) throw new Error('string table does not match its lengths');
    this.sliced = new Array<string | undefined>(lengths.length);
  }

  /** Walks the sections to the string table, the last two. */
  private tableStart(): number {
    const starts: number[] = [];
    let position = 0;
    while (position < this.bytes.byteLength) {
      starts.push(position);
      position += ALIGN + this.sectionLength(position);
      position += padding(position);
    }
    if (position !== this.bytes.byteLength || starts.length < 2) throw new Error('sections do not fill the body');
    return starts[starts.length - 2];
  }

  private sectionLength(position: number): number {
    if (position + ALIGN > this.bytes.byteLength) throw new Error('section header cut short');
    const length = new DataView(this.bytes.buffer, this.bytes.byteOffset + position, ALIGN).getUint32(0, true);
    if (position + ALIGN + length > this.bytes.byteLength) throw new Error('section cut short');
    return length;
  }

  private next(elementBytes: number): { offset: number; count: number } {
    const length = this.sectionLength(this.position);
    if (length % elementBytes !== 0) throw new Error('section of the wrong element size');
    const offset = this.bytes.byteOffset + this.position + ALIGN;
    this.position += ALIGN + length + padding(length);
    return { offset, count: length / elementBytes };
  }

  int32(): Int32Array {
    const { offset, count } = this.next(4);
    return new Int32Array(this.bytes.buffer, offset, count);
  }

  float64(): Float64Array {
    const { offset, count } = this.next(8);
    return new Float64Array(this.bytes.buffer, offset, count);
  }

  uint8(): Uint8Array {
    const { offset, count } = this.next(1);
    return new Uint8Array(this.bytes.buffer, offset, count);
  }

  /** How many strings the table holds (refs run from 0 to this, exclusive). */
  get stringCount(): number {
    return this.sliced.length;
  }

  /** The string a ref stands for, sliced from the table the first time it is asked for. */
  string(ref: number): string | null {
    if (ref === -1) return null;
    let value = this.sliced[ref];
    if (value === undefined) {
      if (!(ref >= 0 && ref < this.sliced.length)) throw new Error(`no string ${ref}`);
      value = this.text.slice(this.starts[ref], this.starts[ref + 1]);
      this.sliced[ref] = value;
    }
    return value;
  }
}
