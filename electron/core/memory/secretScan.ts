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
    const cached = this.cache.get(hash);
    if (cached) return cached;
    let hits: SecretHit[];
    try {
      const result = await lintSource({
        source: { filePath: 'memory.md', content: text, contentType: 'text' },
        options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
      });
      hits = result.messages
        .filter((message) => message.type === 'message')
        .map((message) => ({
          line: message.loc.start.line,
          kind: message.ruleId.startsWith(RULE_PREFIX) ? message.ruleId.slice(RULE_PREFIX.length) : message.ruleId,
          length: message.range[1] - message.range[0],
          start: message.range[0],
        }));
    } catch {
      // A rule that trips over odd input must not stop the review; the file simply has no secret findings.
      hits = [];
    }
    for (const key of [...pemPrivateKeys(text), ...awsAccessKeyIds(text)]) {
      if (!hits.some((hit) => hit.kind === key.kind && hit.line === key.line)) hits.push(key);
    }
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, hits);
    return hits;
  }
}
