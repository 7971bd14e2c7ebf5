import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import type { SecretHit } from '../../../shared/memory/findings';

// secretlint profiles every rule on every file with performance.mark() unless told not to: that costs more than
// the scan itself and keeps every mark in memory for the life of the process.
secretLintProfiler.setEnabled(false);

const CONFIG: SecretLintCoreConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedRules }] };
const RULE_PREFIX = '@secretlint/secretlint-rule-';
/** Results by content hash: a file's secrets only change when its bytes do (bounded, oldest dropped first). */
const MAX_CACHED = 20_000;
/** Between texts scanned together: no rule matches across a blank line. */
const JOIN = '\n\n';
/** Texts scanned together are joined into strings of at most this many characters. */
const MAX_BATCH_CHARS = 4 * 1024 * 1024;

/** A PEM block labelled as a private key of any kind (RSA, EC, DSA, OPENSSH, ENCRYPTED or none). */
const PEM_PRIVATE_KEY = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----\r?\n([\s\S]*?)-----END \1PRIVATE KEY-----/g;
/** Less than this is a placeholder ("...your key here..."), not key material. */
const MIN_KEY_BASE64 = 64;

/**
 * Private keys that secretlint's rule lets through: it wants the body to start like a PKCS#1/#8 key ("MI…"), so a
 * SEC1 EC key ("MH…") passes unnoticed. Any block labelled as a private key whose body (less `Proc-Type`-style
 * header lines) is real base64 counts here.
 */
function pemPrivateKeys(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const match of text.matchAll(PEM_PRIVATE_KEY)) {
    const body = match[2]
      .split(/\r?\n/)
      .filter((line) => !line.includes(':'))
      .join('')
      .replace(/\s+/g, '');
    if (body.length < MIN_KEY_BASE64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    hits.push({ line, kind: 'privatekey', length: match[0].length, start: match.index });
  }
  return hits;
}

/**
 * An AWS access key id (long-term `AKIA`, temporary `ASIA`) standing alone. secretlint only reports one next to its
 * secret key, but an id alone names an account and a user and is the first half of a leak; Claude Code's team
 * memory guard refuses it too. AWS's documentation example (`…EXAMPLE`) is not a key.
 */
const AWS_ACCESS_KEY_ID = /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g;

function awsAccessKeyIds(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const match of text.matchAll(AWS_ACCESS_KEY_ID)) {
    if (match[0].endsWith('EXAMPLE')) continue;
    hits.push({ line: text.slice(0, match.index).split('\n').length, kind: 'aws', length: match[0].length, start: match.index });
  }
  return hits;
}

/**
 * Scans memory text with secretlint's recommended rule set (AWS, GCP, GitHub, Slack, npm, private keys,
 * passwords in URLs, OpenAI/Anthropic keys…), plus the private keys and AWS access key ids it lets through. Only
 * the kind, place and length of each hit leave this module (masking needs the place): the secret itself is never
 * kept or echoed. Scanning costs ~0.3 ms per file, so results are cached by content hash and a warm review of a
 * thousand files pays nothing for it.
 */
export class SecretScanner {
  private readonly cache = new Map<string, readonly SecretHit[]>();

  async scan(hash: string, text: string): Promise<readonly SecretHit[]> {
    return (await this.scanMany([{ hash, text }]))[0];
  }

  /**
   * Scans many texts, each answered in its own lines and offsets. secretlint costs about 0.3 ms a call whatever
   * the text's size, so texts not in the cache are scanned together, joined by a blank line (no rule matches across
   * one): a first review of a thousand files costs one fifth of a call each. A hit that still spans two texts has
   * them scanned again one by one, so joining never adds or hides a secret.
   */
  async scanMany(items: readonly { readonly hash: string; readonly text: string }[]): Promise<(readonly SecretHit[])[]> {
    const out: (readonly SecretHit[] | undefined)[] = items.map((item) => this.cache.get(item.hash));
    const todo = items.map((_, index) => index).filter((index) => out[index] === undefined);
    for (let from = 0; from < todo.length;) {
      // Batches of a few MB: one string per batch, however big the folder.
      let to = from;
      let chars = 0;
      while (to < todo.length && (to === from || chars + items[todo[to]].text.length <= MAX_BATCH_CHARS))
        chars += items[todo[to++]].text.length;
      const batch = todo.slice(from, to);
      const found = batch.length === 1 ? [await lintHits(items[batch[0]].text)] : await this.lintJoined(batch.map((i) => items[i].text));
      batch.forEach((index, k) => (out[index] = this.remember(items[index].hash, items[index].text, found[k])));
      from = to;
    }
    return out as (readonly SecretHit[])[];
  }

  /** secretlint's hits in texts joined by a blank line, handed back to each text; a text touched by a hit across a join is scanned alone. */
  private async lintJoined(texts: readonly string[]): Promise<SecretHit[][]> {
    const starts: number[] = [];
    const firstLines: number[] = [];
    let at = 0;
    let line = 1;
    for (const text of texts) {
      starts.push(at);
      firstLines.push(line);
      at += text.length + JOIN.length;
      line += countLines(text) + 1;
    }
    const owner = (offset: number): number => {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle] <= offset) low = middle;
        else high = middle - 1;
      }
      return low;
    };
    const joined = await lintHits(texts.join(JOIN));
    const out: SecretHit[][] = texts.map(() => []);
    const alone = new Set<number>();
    for (const hit of joined) {
      const start = hit.start ?? 0;
      const first = owner(start);
      const last = owner(start + Math.max(0, hit.length - 1));
      if (first !== last || start + hit.length > starts[first] + texts[first].length) {
        for (let index = first; index <= last; index++) alone.add(index);
        continue;
      }
      out[first].push({ ...hit, line: hit.line - firstLines[first] + 1, start: start - starts[first] });
    }
    for (const index of alone) out[index] = await lintHits(texts[index]);
    return out;
  }

  /** Adds what secretlint lets through to its hits, and caches them by content. */
  private remember(hash: string, text: string, hits: SecretHit[]): readonly SecretHit[] {
    for (const key of [...pemPrivateKeys(text), ...awsAccessKeyIds(text)]) {
      if (!hits.some((hit) => hit.kind === key.kind && hit.line === key.line)) hits.push(key);
    }
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, hits);
    return hits;
  }
}

/** The hits of secretlint's rules in one text. */
async function lintHits(text: string): Promise<SecretHit[]> {
  try {
    const result = await lintSource({
      source: { filePath: 'memory.md', content: text, contentType: 'text' },
      options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
    });
    return result.messages
      .filter((message) => message.type === 'message')
      .map((message) => ({
        line: message.loc.start.line,
        kind: message.ruleId.startsWith(RULE_PREFIX) ? message.ruleId.slice(RULE_PREFIX.length) : message.ruleId,
        length: message.range[1] - message.range[0],
        start: message.range[0],
      }));
  } catch {
    // A rule that trips over odd input must not stop the review; the text simply has no secret findings.
    return [];
  }
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
