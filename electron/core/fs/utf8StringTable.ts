import { growableArray, reserve } from './growableArrays';

/**
 * A table of distinct strings kept as one run of UTF-8 bytes, each named by its number in the order it was first
 * added: the string table of `binarySections.ts` (UTF-16 lengths, then the strings' UTF-8 run) built as strings come
 * in, without holding them as JavaScript strings. A big transcript's line index has hundreds of thousands of ids and
 * timestamps; as strings in a map each cost about three times its bytes, and they were all promoted to the old
 * generation before the index was saved.
 *
 * Strings are found again by an FNV-1a hash of their bytes in an open-addressed table. A string with a lone surrogate
 * has no UTF-8 bytes of its own (its encoding replaces the surrogate, so two such strings could share bytes): it is
 * kept as itself, beside the table, and `textParts` then encodes all strings joined, as a plain string table does,
 * where a high surrogate ending one string and a low one starting the next make one character.
 */
const INITIAL_SLOTS = 2048;
/**
 * The most strings and bytes a table holds (reserved, not committed: see `growableArrays.ts`): about two strings a line
 * of the most lines a line index keeps, and the whole room of the saved indexes.
 */
const MAX_STRINGS = 1 << 23;
const MAX_BYTES = 1 << 28;
/** Growth steps, in strings and in bytes. */
const STRINGS_STEP = 64 * 1024;
const BYTES_STEP = 1024 * 1024;
const EMPTY_SLOT = -1;

/** `String.prototype.isWellFormed` (Node 20 has it; the TypeScript lib here does not name it yet). */
function isWellFormed(value: string): boolean {
  return (value as unknown as { isWellFormed(): boolean }).isWellFormed();
}

function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash | 0;
}

export class Utf8StringTable {
  private readonly byteRun = growableArray(Uint8Array, MAX_BYTES);
  /** `byteRun` as a Buffer (for its UTF-8 reads and writes), made again whenever the run grows. */
  private bytes = Buffer.from(this.byteRun.buffer, 0, 0);
  private byteEnd = 0;
  private readonly byteStarts = growableArray(Int32Array, MAX_STRINGS);
  private readonly byteLengths = growableArray(Int32Array, MAX_STRINGS);
  /** UTF-16 lengths: the table's first section. */
  private readonly lengths = growableArray(Int32Array, MAX_STRINGS);
  private readonly hashes = growableArray(Int32Array, MAX_STRINGS);
  private readonly perString = [this.byteStarts, this.byteLengths, this.lengths, this.hashes];
  private slots: Int32Array = new Int32Array(INITIAL_SLOTS).fill(EMPTY_SLOT);
  /** Strings with a lone surrogate, by value and by ref (see above); almost always empty. */
  private readonly illFormed = new Map<string, number>();
  private readonly illFormedByRef = new Map<number, string>();
  private size = 0;

  /** How many strings the table holds; refs run from 0 to this, exclusive. */
  get count(): number {
    return this.size;
  }

  /** The number standing for a string (or -1 for null), added if new. */
  ref(value: string | null): number {
    return value === null ? -1 : this.locate(value, true);
  }

  /** The number of a string the table holds, or -1 when it holds none such. */
  find(value: string): number {
    return this.locate(value, false);
  }

  /** The string a ref stands for (decoded anew each time: the table keeps bytes, not strings). */
  string(ref: number): string | null {
    if (ref === -1) return null;
    if (!(ref >= 0 && ref < this.size)) throw new Error(`no string ${ref}`);
    if (this.illFormed.size > 0) {
      const own = this.illFormedByRef.get(ref);
      if (own !== undefined) return own;
    }
    const start = this.byteStarts[ref];
    const end = start + this.byteLengths[ref];
    // As many bytes as UTF-16 units: all ASCII, where Latin-1 is the same text and a plain copy.
    return this.bytes.toString(this.byteLengths[ref] === this.lengths[ref] ? 'latin1' : 'utf8', start, end);
  }

  /** The UTF-16 length of every string, in ref order (viewed in place: later additions do not change it). */
  utf16Lengths(): Int32Array {
    return this.lengths.subarray(0, this.size);
  }

  /** Every string's UTF-8 bytes run together, in ref order, with `more` after them (as if added in that order). */
  textParts(more: readonly string[] = []): Uint8Array[] {
    if (this.illFormed.size > 0 || more.some((value) => !isWellFormed(value))) {
      const all: string[] = [];
      for (let ref = 0; ref < this.size; ref++) all.push(this.string(ref) as string);
      return [Buffer.from(all.concat(more).join(''), 'utf8')];
    }
    const own = this.bytes.subarray(0, this.byteEnd);
    return more.length === 0 ? [own] : [own, Buffer.from(more.join(''), 'utf8')];
  }

  private locate(value: string, add: boolean): number {
    if (!isWellFormed(value)) {
      const known = this.illFormed.get(value);
      if (known !== undefined || !add) return known ?? -1;
      // Its bytes (the surrogate replaced) are written too, so every ref has a place in the run.
      this.reserveBytes(value.length * 3);
      const ref = this.append(value, this.bytes.write(value, this.byteEnd, 'utf8'), 0);
      this.illFormed.set(value, ref);
      this.illFormedByRef.set(ref, value);
      return ref;
    }
    this.reserveBytes(value.length * 3);
    // Written where it would go, then compared with the strings of the same hash; kept only if none is the same.
    const start = this.byteEnd;
    const byteLength = this.bytes.write(value, start, 'utf8');
    const hash = hashOf(this.bytes, start, start + byteLength);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let ref = this.slots[slot]; ref !== EMPTY_SLOT; ref = this.slots[slot]) {
      if (this.hashes[ref] === hash && this.sameBytes(ref, start, byteLength)) return ref;
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    const ref = this.append(value, byteLength, hash);
    this.slots[slot] = ref;
    if (this.size * 2 > this.slots.length) this.rehash();
    return ref;
  }

  /** Adds the string whose `byteLength` bytes were just written at `byteEnd`. */
  private append(value: string, byteLength: number, hash: number): number {
    for (const column of this.perString) reserve(column, this.size + 1, STRINGS_STEP);
    const ref = this.size++;
    this.byteStarts[ref] = this.byteEnd;
    this.byteLengths[ref] = byteLength;
    this.lengths[ref] = value.length;
    this.hashes[ref] = hash;
    this.byteEnd += byteLength;
    return ref;
  }

  private sameBytes(ref: number, start: number, byteLength: number): boolean {
    if (this.byteLengths[ref] !== byteLength) return false;
    const other = this.byteStarts[ref];
    for (let i = 0; i < byteLength; i++) if (this.bytes[other + i] !== this.bytes[start + i]) return false;
    return true;
  }

  private reserveBytes(extra: number): void {
    if (this.byteEnd + extra <= this.bytes.length) return;
    reserve(this.byteRun, this.byteEnd + extra, BYTES_STEP);
    this.bytes = Buffer.from(this.byteRun.buffer, 0, this.byteRun.length);
  }

  /** Twice the slots, every hashed string placed again in ref order (so each one's probe run holds only older ones). */
  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY_SLOT);
    const mask = this.slots.length - 1;
    for (let ref = 0; ref < this.size; ref++) {
      if (this.illFormedByRef.has(ref)) continue;
      let slot = this.hashes[ref] & mask;
      while (this.slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
      this.slots[slot] = ref;
    }
  }
}
