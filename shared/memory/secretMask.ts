/**
 * Masking of secrets in text that is shown: search previews, memory files, exports, job records. Pure: the engine
 * finds where the secrets are (secretlint, electron/core/secrets/secretScan.ts) and hands the spans here.
 */

/** Where one secret sits in a text, as UTF-16 offsets [start, end). */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
}

/** What a masked character shows instead. */
export const MASK_CHAR = '•';

/**
 * The text with every character inside a span replaced by `MASK_CHAR`. Line breaks are kept and the length does not
 * change, so line numbers, offsets and highlights computed on the original still fit the masked text.
 */
export function maskSpans(text: string, spans: readonly SecretSpan[]): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const span of sorted) {
    const start = Math.max(at, Math.min(text.length, span.start));
    const end = Math.max(start, Math.min(text.length, span.end));
    out += text.slice(at, start) + text.slice(start, end).replace(/[^\r\n]/g, MASK_CHAR);
    at = end;
  }
  return out + text.slice(at);
}

/** Characters a key or token is made of. */
const KEY_CHAR = /[A-Za-z0-9+/=_\-.]/;

/**
 * The span grown to the whole token(s) at its ends. Some rules report a range that is off (secretlint's AWS rule
 * gives the secret's length from the start of `aws_secret_access_key = …`): a span that ends or starts inside a key
 * then still covers all of it.
 */
export function widenToTokens(text: string, span: SecretSpan): SecretSpan {
  let { start, end } = span;
  while (start > 0 && start < text.length && KEY_CHAR.test(text[start]) && KEY_CHAR.test(text[start - 1])) start--;
  while (end > 0 && end < text.length && KEY_CHAR.test(text[end - 1]) && KEY_CHAR.test(text[end])) end++;
  return { start, end };
}

/** The span of a whole line (without its indentation and line break), for a secret whose rule gave only its line. */
export function lineSpan(text: string, line: number): SecretSpan | null {
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return null;
    start = next + 1;
  }
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  if (end > start && text[end - 1] === '\r') end--;
  return end > start ? { start, end } : null;
}

/** How long a run of key-like characters at a preview's cut edge must be to be taken for part of a secret. */
const MIN_CUT_FRAGMENT = 16;
const CUT_MARK = '…';

/**
 * A search preview is cut out of a longer line, and a secret cut in half no longer looks like one to the detector.
 * The run of key-like characters right at a cut (next to the `…`) is masked when it is long enough to be part of
 * a key; a long word at the edge of a preview may be masked too, which costs less than half a key shown.
 */
export function cutEdgeSpans(preview: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const keyLike = /[A-Za-z0-9_\-+/=.]/;
  if (preview.startsWith(CUT_MARK)) {
    let end = CUT_MARK.length;
    while (end < preview.length && keyLike.test(preview[end])) end++;
    if (end - CUT_MARK.length >= MIN_CUT_FRAGMENT) spans.push({ start: CUT_MARK.length, end });
  }
  if (preview.endsWith(CUT_MARK) && preview.length > CUT_MARK.length) {
    const end = preview.length - CUT_MARK.length;
    let start = end;
    while (start > 0 && keyLike.test(preview[start - 1])) start--;
    if (end - start >= MIN_CUT_FRAGMENT) spans.push({ start, end });
  }
  return spans;
}

/** Runs of base64-like characters at least this long may be key material cut out of a longer secret. */
const MIN_KEY_MATERIAL = 40;
/** Random base64 is about half capitals and digits; words, paths and identifiers are mostly lower case. */
const MIN_KEY_MATERIAL_DENSITY = 0.3;

/**
 * Runs that look like key material without the armour the detector needs: one line of a private key's body, or a
 * key whose prefix was cut off. Long, mixed-case with digits, and dense in capitals and digits (hex hashes, words
 * and paths are not).
 */
export function keyMaterialSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9+/=_-]{40,}/g)) {
    const run = match[0];
    if (run.length < MIN_KEY_MATERIAL || !/[A-Z]/.test(run) || !/[a-z]/.test(run) || !/[0-9]/.test(run)) continue;
    const dense = run.replace(/[^A-Z0-9]/g, '').length / run.length;
    if (dense >= MIN_KEY_MATERIAL_DENSITY) spans.push({ start: match.index, end: match.index + run.length });
  }
  return spans;
}

/** What a search preview masks beyond the detector's findings: a key cut at the preview's edge, or bare key material. */
export function previewSecretSpans(preview: string): SecretSpan[] {
  return [...cutEdgeSpans(preview), ...keyMaterialSpans(preview)];
}

/** The entities the app's HTML exports escape text with (see escapeHtml in transcriptExport.ts). */
const HTML_ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** HTML with its entities decoded, so the detector sees the text as it was, and where each character came from. */
export interface HtmlTextView {
  readonly text: string;
  /** `origin[i]` is the offset in the HTML of the text's character i; `origin[text.length]` is the HTML's length. */
  readonly origin: Int32Array;
}

export function htmlTextView(html: string): HtmlTextView {
  const origin = new Int32Array(html.length + 1);
  let text = '';
  let at = 0;
  for (const match of html.matchAll(/&(?:amp|lt|gt|quot|#39);/g)) {
    for (let i = at; i < match.index; i++) origin[text.length + i - at] = i;
    text += html.slice(at, match.index);
    origin[text.length] = match.index;
    text += HTML_ENTITIES[match[0]];
    at = match.index + match[0].length;
  }
  for (let i = at; i < html.length; i++) origin[text.length + i - at] = i;
  text += html.slice(at);
  origin[text.length] = html.length;
  return { text, origin: origin.subarray(0, text.length + 1) };
}

/** Spans found in the decoded text, as spans of the HTML (an entity inside a span is masked whole). */
export function spansInHtml(view: HtmlTextView, spans: readonly SecretSpan[]): SecretSpan[] {
  return spans.map((span) => ({ start: view.origin[span.start], end: view.origin[span.end] }));
}
