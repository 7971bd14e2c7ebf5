/** Hex digits of every byte value, so ids are built by table lookups instead of number formatting. */
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A 32-bit hash of a label (xmur3 mixing), used to derive independent streams from one seed. */
function hashLabel(label: string): number {
  let h = 1779033703 ^ label.length;
  for (let i = 0; i < label.length; i++) {
    h = Math.imul(h ^ label.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A small, fast, seeded generator (sfc32). Every part of the synthetic home draws from a stream derived
 * from the seed and a stable label (`derive`), so one project's content never depends on another's and
 * the same seed always gives the same bytes.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, label = '') {
    this.a = hashLabel(`a:${seed}:${label}`);
    this.b = hashLabel(`b:${seed}:${label}`);
    this.c = hashLabel(`c:${seed}:${label}`);
    this.d = 1;
    // The first outputs of sfc32 are correlated with the seed words; skip them.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** An independent stream for a labelled sub-part (a project, a session, a sub-agent). */
  derive(label: string): SeededRandom {
    return new SeededRandom(this.nextUint32(), label);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** A size drawn log-uniformly between min and max: many small values, a long tail of big ones. */
  logUniform(min: number, max: number): number {
    return Math.round(min * Math.pow(max / min, this.next()));
  }

  /** A Pareto-distributed value ≥ 1: most near 1, a few very large (smaller `alpha`, heavier tail). */
  pareto(alpha: number): number {
    return Math.pow(1 - this.next(), -1 / alpha);
  }

  /** `count` random bytes as lowercase hex. */
  hex(count: number): string {
    let out = '';
    for (let i = 0; i < count; i += 4) {
      const word = this.nextUint32();
      out += BYTE_HEX[word & 0xff] + BYTE_HEX[(word >>> 8) & 0xff] + BYTE_HEX[(word >>> 16) & 0xff] + BYTE_HEX[word >>> 24];
    }
    return out.slice(0, count * 2);
  }

  /** A UUID v4 (version and variant bits set as Claude Code's ids have them). */
  uuid(): string {
    const h = this.hex(16);
    const variant = BYTE_HEX[(parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
  }

  /** Base-62 text, as in Anthropic's `msg_…`, `req_…` and `toolu_…` ids. */
  base62(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += BASE62[this.nextUint32() % 62];
    return out;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
