import { describe, expect, it } from 'vitest';
import { isMeaningfulPrompt, recordedSlashCommand, toTitle, userContentText } from '../../../../shared/claude/promptText';

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

  it('reads a slash command from a text that is only its record, and nothing from any other text', () => {
    expect(
      recordedSlashCommand(
        '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app</command-args>',
      ),
    ).toEqual({ name: '/orchestrator', args: 'create TODO app' });
    // Claude Code 1.x wrote the name without its slash, and /clear has no arguments.
    expect(recordedSlashCommand('<command-name>review</command-name><command-args> PR 12 </command-args>')).toEqual({
      name: '/review',
      args: 'PR 12',
    });
    expect(
      recordedSlashCommand(
        '<command-name>/clear</command-name>\n  <command-message>clear</command-message>\n  <command-args></command-args>',
      ),
    ).toEqual({ name: '/clear', args: '' });
    // A skill's body after its tags, text around a tag, a tag left open: shown as written.
    expect(recordedSlashCommand('<command-message>checkout skill</command-message> injected skill body')).toBeNull();
    expect(recordedSlashCommand('<command-name>/x</command-name> and more')).toBeNull();
    expect(recordedSlashCommand('run <command-name>/x</command-name>')).toBeNull();
    expect(recordedSlashCommand('<command-name>/x</command-name><command-args>open')).toBeNull();
    expect(recordedSlashCommand('plain prompt')).toBeNull();
  });
});
