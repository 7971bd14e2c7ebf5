import { createHash } from 'node:crypto';
import { htmlTextView, lineSpan, maskSpans, spansInHtml, widenToTokens, type SecretSpan } from '../../../shared/memory/secretMask';
import { SecretScanner } from './secretScan';

export interface MaskedText {
  readonly text: string;
  /** How many secrets were masked. */
  readonly masked: number;
}

/** Between texts scanned together: no secret rule matches across a blank line. */
const JOIN = '\n\n';

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Finds secrets with the app's one detector (secretScan.ts) and masks them in text that is about to be shown. Many
 * short texts (search previews, descriptions) are scanned as one, so a page of results costs one scan.
 */
export class SecretMasker {
  constructor(private readonly scanner = new SecretScanner()) {}

  /** Where the secrets in `text` are, grown to whole tokens; a hit without an offset covers its whole line. */
  async spans(text: string): Promise<SecretSpan[]> {
    if (text === '') return [];
    const hits = await this.scanner.scan(hashOf(text), text);
    const spans: SecretSpan[] = [];
    for (const hit of hits) {
      const span = hit.start !== undefined ? { start: hit.start, end: hit.start + hit.length } : lineSpan(text, hit.line);
      if (span) spans.push(widenToTokens(text, span));
    }
    return spans;
  }

  async mask(text: string): Promise<MaskedText> {
    const spans = await this.spans(text);
    return { text: maskSpans(text, spans), masked: spans.length };
  }

  /** Masks secrets in HTML the app rendered: the detector reads the text with its entities decoded (`&quot;` hides a key's context). */
  async maskHtml(html: string): Promise<MaskedText> {
    const view = htmlTextView(html);
    const spans = spansInHtml(view, await this.spans(view.text));
    return { text: maskSpans(html, spans), masked: spans.length };
  }

  /**
   * Masks each text of a list with one scan of them all. `extraSpans` adds spans per text (the cut edges of a
   * search preview, say).
   */
  async maskAll(texts: readonly string[], extraSpans?: (text: string) => SecretSpan[]): Promise<{ texts: string[]; masked: number }> {
    const starts: number[] = [];
    let at = 0;
    for (const text of texts) {
      starts.push(at);
      at += text.length + JOIN.length;
    }
    const spans = await this.spans(texts.join(JOIN));
    let masked = 0;
    const out = texts.map((text, index) => {
      const start = starts[index];
      const own = spans
        .filter((span) => span.end > start && span.start < start + text.length)
        .map((span) => ({ start: span.start - start, end: span.end - start }));
      const all = [...own, ...(extraSpans?.(text) ?? [])];
      masked += all.length;
      return maskSpans(text, all);
    });
    return { texts: out, masked };
  }
}
