import { describe, expect, it } from 'vitest';
import { agentTypeToFolderName, isSessionFileName, sessionIdFromFileName } from '../../../../shared/claude/sessionFiles';

describe('sessionFiles', () => {
  it('only UUID-named .jsonl files are sessions', () => {
    expect(isSessionFileName('a572bd87-2e28-4d70-9b73-cd08231cacb6.jsonl')).toBe(true);
    expect(isSessionFileName('A572BD87-2E28-4D70-9B73-CD08231CACB6.jsonl')).toBe(true);
    expect(isSessionFileName('agent-a38ec468816fd17e1.jsonl')).toBe(false);
    expect(isSessionFileName('a572bd87-2e28-4d70-9b73-cd08231cacb6.json')).toBe(false);
    expect(isSessionFileName('a572bd87-2e28-4d70-9b73-cd08231cacb6.jsonl.bak')).toBe(false);
    expect(isSessionFileName('sessions-index.json')).toBe(false);
    expect(isSessionFileName('a572bd87-2e28-4d70-9b73.jsonl')).toBe(false);
  });

  it('the session id is the file name without .jsonl', () => {
    expect(sessionIdFromFileName('a572bd87-2e28-4d70-9b73-cd08231cacb6.jsonl')).toBe('a572bd87-2e28-4d70-9b73-cd08231cacb6');
  });

  it("plugin agent types use '-' for ':' in folder names", () => {
    expect(agentTypeToFolderName('my-plugin:reviewer')).toBe('my-plugin-reviewer');
    expect(agentTypeToFolderName('qa')).toBe('qa');
  });
});
