import { describe, expect, it } from 'vitest';
import { claudeResumeCommand, posixQuote, resumeCommands, withDirectoryChange } from '../../../../shared/transcript/resumeCommand';
import { parseSessionMemorySections } from '../../../../shared/transcript/sessionMemorySections';

describe('parseSessionMemorySections', () => {
  it('splits the template by `# ` header, keeping the italic guidance apart from the content', () => {
    const text =
      '\n# Session Title\n_A short title_\n\nFix the cart\n\n# Current State\n_What now?_\n\n## Details\n- one\n```\n# not a header\n```\n# Empty\n_nothing yet_\n';
    expect(parseSessionMemorySections(text)).toEqual([
      { title: 'Session Title', description: 'A short title', content: 'Fix the cart' },
      { title: 'Current State', description: 'What now?', content: '## Details\n- one\n```\n# not a header\n```' },
      { title: 'Empty', description: 'nothing yet', content: '' },
    ]);
  });

  it('keeps text before the first header and files without the template', () => {
    expect(parseSessionMemorySections('notes first\r\n# Title\r\nbody')).toEqual([
      { title: '', description: null, content: 'notes first' },
      { title: 'Title', description: null, content: 'body' },
    ]);
    expect(parseSessionMemorySections('')).toEqual([]);
  });
});

describe('resume commands', () => {
  const id = '7b7c1f9e-2c7a-4d6b-9f5e-0a1b2c3d4e5f';

  it('builds `claude --resume` with and without --fork-session', () => {
    expect(claudeResumeCommand(id, false)).toBe(`claude --resume ${id}`);
    expect(claudeResumeCommand(id, true)).toBe(`claude --resume ${id} --fork-session`);
  });

  it('quotes the directory for the shell of the platform that recorded it', () => {
    expect(posixQuote("/home/me/it's here")).toBe(`'/home/me/it'\\''s here'`);
    expect(withDirectoryChange('cmd', "/home/me/it's here")).toBe(`cd '/home/me/it'\\''s here' && cmd`);
    expect(withDirectoryChange('cmd', "X:\\03_ACG\\Bob's")).toBe(`cd 'X:\\03_ACG\\Bob''s'; cmd`);
    expect(withDirectoryChange('cmd', null)).toBe('cmd');
    expect(resumeCommands(id, '/w')).toEqual({
      resume: `claude --resume ${id}`,
      fork: `claude --resume ${id} --fork-session`,
      copyResume: `cd '/w' && claude --resume ${id}`,
      copyFork: `cd '/w' && claude --resume ${id} --fork-session`,
    });
  });
});
