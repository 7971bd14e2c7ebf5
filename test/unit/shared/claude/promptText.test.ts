import { describe, expect, it } from 'vitest';
import { isMeaningfulPrompt, recordedCommand, toTitle, userContentText } from '../../../../shared/claude/promptText';

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

  it('reads a command from a text that is only its record, and nothing from any other text', () => {
    expect(
      recordedCommand(
        '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app</command-args>',
      ),
    ).toEqual({ kind: 'slash', name: '/orchestrator', args: 'create TODO app' });
    // Claude Code 1.x wrote the name without its slash, and /clear has no arguments.
    expect(recordedCommand('<command-name>review</command-name><command-args> PR 12 </command-args>')).toEqual({
      kind: 'slash',
      name: '/review',
      args: 'PR 12',
    });
    expect(
      recordedCommand('<command-name>/clear</command-name>\n  <command-message>clear</command-message>\n  <command-args></command-args>'),
    ).toEqual({ kind: 'slash', name: '/clear', args: '' });
    // A shell command typed after `!`, and what local and shell commands printed.
    expect(recordedCommand('<bash-input>git status</bash-input>')).toEqual({ kind: 'shell', command: 'git status' });
    expect(recordedCommand('<bash-stdout>On branch main</bash-stdout><bash-stderr>warning: x</bash-stderr>')).toEqual({
      kind: 'output',
      stdout: 'On branch main',
      stderr: 'warning: x',
    });
    expect(recordedCommand('<local-command-stdout></local-command-stdout>')).toEqual({ kind: 'output', stdout: '', stderr: '' });
    expect(recordedCommand('<local-command-stderr>Error: no such skill</local-command-stderr>')).toEqual({
      kind: 'output',
      stdout: '',
      stderr: 'Error: no such skill',
    });
    // A skill's body after its tags, text around a tag, a tag left open: shown as written.
    expect(recordedCommand('<command-message>checkout skill</command-message> injected skill body')).toBeNull();
    expect(recordedCommand('<command-name>/x</command-name> and more')).toBeNull();
    expect(recordedCommand('run <command-name>/x</command-name>')).toBeNull();
    expect(recordedCommand('<command-name>/x</command-name><command-args>open')).toBeNull();
    expect(recordedCommand('<bash-input>ls</bash-input> and then')).toBeNull();
    expect(recordedCommand('<bash-stdout>x</bash-stdout> said the tool')).toBeNull();
    expect(recordedCommand('<local-command-stdout>open')).toBeNull();
    expect(recordedCommand('plain prompt')).toBeNull();
  });
});
