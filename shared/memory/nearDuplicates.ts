/**
 * Finds topic files that say nearly the same thing: word-bigram sets compared with MinHash and
 * locality-sensitive hashing, then confirmed with the exact Jaccard similarity. Linear in the number of
 * files, so a folder of thousands stays fast.
 */

export interface Fingerprint {
  /** Sorted, distinct 32-bit hashes of the text's word bigrams. */
  readonly shingles: Uint32Array;
  readonly minhash: Uint32Array;
}

export interface NearDuplicate {
  readonly a: string;
  readonly b: string;
  /** Jaccard similarity of the two word-bigram sets, 0..1. */
  readonly similarity: number;
}

const HASHES = 64;
const BANDS = 16;
const ROWS = HASHES / BANDS;
/** Below this, texts share a phrase or two rather than say the same thing. */
export const NEAR_DUPLICATE_SIMILARITY = 0.6;
/** Too few words to judge sameness. */
const MIN_SHINGLES = 4;
const MAX_CANDIDATES_PER_FILE = 64;
const PER_BUCKET = 8;
const MAX_PAIRS_PER_FILE = 3;

const STOP_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'is', 'are', 'be', 'it', 'this', 'that', 'with']);

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function mix(value: number, seed: number): number {
  let h = (value ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Words of a memory, without markdown punctuation and the most common filler words. */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word));
}

export function fingerprint(text: string): Fingerprint {
  const words = wordsOf(text);
  const set = new Set<number>();
  if (words.length === 1) set.add(fnv1a(words[0]));
  for (let i = 0; i + 1 < words.length; i++) set.add(fnv1a(`${words[i]} ${words[i + 1]}`));
  const shingles = Uint32Array.from(set).sort();
  const minhash = new Uint32Array(HASHES).fill(0xffffffff);
  for (const shingle of shingles) {
    for (let k = 0; k < HASHES; k++) {
      const h = mix(shingle, k + 1);
      if (h < minhash[k]) minhash[k] = h;
    }
  }
  return { shingles, minhash };
}

/** Exact Jaccard similarity of two sorted hash sets. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}

/** Pairs of files whose texts are at least `threshold` alike, each file in at most a few pairs (its closest ones). */
export function findNearDuplicates(
  items: readonly { readonly id: string; readonly fingerprint: Fingerprint }[],
  threshold = NEAR_DUPLICATE_SIMILARITY,
): NearDuplicate[] {
  const usable = items.filter((item) => item.fingerprint.shingles.length >= MIN_SHINGLES);
  const candidates = new Map<number, Set<number>>();
  const buckets = new Map<number, number[]>();
  usable.forEach((item, index) => {
    for (let band = 0; band < BANDS; band++) {
      let key = band;
      for (let row = band * ROWS; row < band * ROWS + ROWS; row++) key = mix(item.fingerprint.minhash[row], key + 1);
      const bucket = buckets.get(key);
      if (!bucket) {
        buckets.set(key, [index]);
        continue;
      }
      // Compare with the most recent members only: a huge bucket means templated text, not more information.
      const mine = candidates.get(index) ?? new Set<number>();
      for (let k = bucket.length - 1; k >= Math.max(0, bucket.length - PER_BUCKET) && mine.size < MAX_CANDIDATES_PER_FILE; k--)
        mine.add(bucket[k]);
      candidates.set(index, mine);
      bucket.push(index);
    }
  });
  const pairs: NearDuplicate[] = [];
  for (const [index, others] of candidates) {
    for (const other of others) {
      const similarity = jaccard(usable[index].fingerprint.shingles, usable[other].fingerprint.shingles);
      if (similarity < threshold) continue;
      const [a, b] = [usable[index].id, usable[other].id].sort();
      pairs.push({ a, b, similarity });
    }
  }
  pairs.sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
  const perFile = new Map<string, number>();
  const seen = new Set<string>();
  return pairs.filter((pair) => {
    const key = `${pair.a}\0${pair.b}`;
    if (seen.has(key)) return false;
    seen.add(key);
    if ((perFile.get(pair.a) ?? 0) >= MAX_PAIRS_PER_FILE || (perFile.get(pair.b) ?? 0) >= MAX_PAIRS_PER_FILE) return false;
    perFile.set(pair.a, (perFile.get(pair.a) ?? 0) + 1);
    perFile.set(pair.b, (perFile.get(pair.b) ?? 0) + 1);
    return true;
  });
}
