import { describe, expect, it } from 'vitest';
import {
  cutEdgeSpans,
  htmlTextView,
  keyMaterialSpans,
  lineSpan,
  maskSpans,
  MASK_CHAR,
  spansInHtml,
  widenToTokens,
} from '../../../../shared/memory/secretMask';

describe('masking secrets in shown text', () => {
  it('replaces every character of a span, keeps line breaks and length, and takes overlapping or odd spans', () => {
    const text = 'key: abc\ndef end';
    const masked = maskSpans(text, [
      { start: 7, end: 12 },
      { start: 5, end: 8 },
      { start: 40, end: 50 },
    ]);
    expect(masked).toBe(`key: ${MASK_CHAR.repeat(3)}\n${MASK_CHAR.repeat(3)} end`);
    expect(masked).toHaveLength(text.length);
    expect(maskSpans(text, [])).toBe(text);
  });

  it('finds a whole line without its indentation', () => {
    const text = 'a\n  secret line\r\nc';
    expect(lineSpan(text, 2)).toEqual({ start: 4, end: 15 });
    expect(text.slice(4, 15)).toBe('secret line');
    expect(lineSpan(text, 9)).toBeNull();
  });

  it('masks a long key-like fragment at a cut edge of a preview, not a short word or an uncut end', () => {
    const preview = '…a1B2c3D4e5F6g7H8i9 then the match and ghp_0123456789abcdefghij…';
    const spans = cutEdgeSpans(preview);
    expect(spans.map((span) => preview.slice(span.start, span.end))).toEqual(['a1B2c3D4e5F6g7H8i9', 'ghp_0123456789abcdefghij']);
    expect(cutEdgeSpans('…word then the match…')).toEqual([]);
    expect(cutEdgeSpans('a1B2c3D4e5F6g7H8i9a1B2 then the match')).toEqual([]);
  });

  it('takes dense mixed-case runs for key material, not hashes, paths or long identifiers', () => {
    const line = 'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi6oRwBP5dMzY2H5nVbWqCuXh8k';
    expect(keyMaterialSpans(`x ${line} y`)).toEqual([{ start: 2, end: 2 + line.length }]);
    for (const lookAlike of [
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      '/home/user/projects/app2/src/components/ShoppingCartDrawer',
      'thisIsAVeryLongFunctionNameThatKeepsGoingForever2',
    ]) {
      expect(keyMaterialSpans(lookAlike), lookAlike).toEqual([]);
    }
  });
});

describe('spans grown to whole tokens', () => {
  it('covers a key a rule reported only in part, and leaves a span that ends at a boundary as it is', () => {
    const text = 'aws_secret_access_key = lYjpiEfUsrzy5uKv2lt2AonD3gS1iArhUDoaKIfT done';
    expect(widenToTokens(text, { start: 0, end: 40 })).toEqual({ start: 0, end: text.indexOf(' done') });
    expect(widenToTokens('use ghp_abc now', { start: 4, end: 11 })).toEqual({ start: 4, end: 11 });
    expect(widenToTokens('x=ghp_abc', { start: 5, end: 9 })).toEqual({ start: 0, end: 9 });
  });
});

describe('secrets in rendered HTML', () => {
  it('reads the text with entities decoded and maps spans back over whole entities', () => {
    const html = '<p>key: &quot;abc&amp;def&quot; end</p>';
    const view = htmlTextView(html);
    expect(view.text).toBe('<p>key: "abc&def" end</p>');
    const start = view.text.indexOf('"');
    const end = view.text.lastIndexOf('"') + 1;
    const [span] = spansInHtml(view, [{ start, end }]);
    expect(html.slice(span.start, span.end)).toBe('&quot;abc&amp;def&quot;');
    expect(maskSpans(html, [span])).toBe(`<p>key: ${MASK_CHAR.repeat(23)} end</p>`);
  });
});
