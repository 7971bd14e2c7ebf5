import { describe, expect, it } from 'vitest';
import { isMeaningfulPrompt, toTitle, userContentText } from '../../../../shared/claude/promptText';

describe('promptText', () => {
  it('reads text from string and block-array contents', () => {
    expect(userContentText('hello')).toBe('hello');
    expect(
      userContentText([
        { type: 'image', source: {} },
        { type: 'text', text: 'from block' },
      ]),
    ).toBe('from block');
    expect(userContentText([{ type: 'tool_result', content: 'x' }])).toBeNull();
    expect(userContentText(undefined)).toBeNull();
    expect(userContentText(42)).toBeNull();
  });

  it("skips what Claude Code's SKIP_FIRST_PROMPT_PATTERN skips", () => {
    expect(isMeaningfulPrompt('<command-name>/clear</command-name>')).toBe(false);
    expect(isMeaningfulPrompt('  <local-command-stdout>x</local-command-stdout>')).toBe(false);
    expect(isMeaningfulPrompt('[Request interrupted by user for tool use]')).toBe(false);
    expect(isMeaningfulPrompt('   ')).toBe(false);
    expect(isMeaningfulPrompt('Fix the <div> in header')).toBe(true);
    expect(isMeaningfulPrompt('<3 this')).toBe(true);
  });

  it('collapses whitespace and cuts long titles to 200 characters with an ellipsis', () => {
    expect(toTitle('  a\n\n b\tc ')).toBe('a b c');
    const title = toTitle('x'.repeat(500));
    expect(title).toHaveLength(200);
    expect(title.endsWith('…')).toBe(true);
    expect(toTitle('y'.repeat(200))).toBe('y'.repeat(200));
  });
});
