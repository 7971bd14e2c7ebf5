/** The text of a new memory, shaped as Claude Code's own prompt asks (claude-code-state.md §6.2, §6.3). */
import type { MemoryType } from '../model/memory';
import { formatScalar } from './frontmatterPatch';

export interface NewMemory {
  readonly name: string;
  readonly description: string;
  readonly type: MemoryType;
  /** The rule or fact; the template adds the Why / How to apply lines for feedback and project memories. */
  readonly body: string;
}

/** A file name from a memory's type and name: `feedback_no_force_push.md`. */
export function suggestFileName(type: MemoryType, name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return `${type}_${slug || 'memory'}.md`;
}

export function newMemoryText(memory: NewMemory): string {
  const frontmatter = [
    '---',
    `name: ${formatScalar(memory.name, 'plain')}`,
    `description: ${formatScalar(memory.description, 'plain')}`,
    `type: ${memory.type}`,
    '---',
  ].join('\n');
  const rule = memory.body.trim();
  const needsWhy = memory.type === 'feedback' || memory.type === 'project';
  const hasWhy = /\*\*Why:\*\*/.test(rule);
  const body = needsWhy && !hasWhy ? `${rule}\n\n**Why:** \n\n**How to apply:** \n` : `${rule}\n`;
  return `${frontmatter}\n${body}`;
}
