import type { LlmToolDefinition } from '../llm/llmTypes';
import { TRANSCRIPTS_ALIAS } from './toolPaths';

const pathProperty = (what: string) => ({ type: 'string', description: what });

/** The read-only tools: over the memory folder and, under `@transcripts/`, the project's transcripts. */
export const READ_TOOLS: readonly LlmToolDefinition[] = [
  {
    name: 'list_dir',
    description: `List a folder. Paths are relative to the memory folder ("" is the folder itself). The project's session transcripts are in the read-only folder "${TRANSCRIPTS_ALIAS}".`,
    input_schema: { type: 'object', properties: { path: pathProperty('Folder to list') }, required: ['path'] },
  },
  {
    name: 'read_file',
    description: `Read a file. Memory files come back whole up to 100,000 characters; transcripts (${TRANSCRIPTS_ALIAS}/<session>.jsonl) come back 32 KB at a time: pass the offset the previous answer gives to read on.`,
    input_schema: {
      type: 'object',
      properties: {
        path: pathProperty('File to read'),
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Where to start: a character offset for memory files, a byte offset for transcripts',
        },
      },
      required: ['path'],
    },
  },
  {
    name: 'grep',
    description: `Search for text (case-insensitive, literal; separate alternatives with "|") and get matching lines. Without a path it searches the memory folder; give "${TRANSCRIPTS_ALIAS}" or one transcript file to search transcripts. At most 100 matches come back, the most recent last.`,
    input_schema: {
      type: 'object',
      properties: { pattern: { type: 'string', description: 'Text to find' }, path: pathProperty('File or folder to search') },
      required: ['pattern'],
    },
  },
];

/** The sources a change rests on; optional in the schema, so a change that cites nothing is staged and flagged. */
const evidenceProperty = {
  type: 'array',
  maxItems: 20,
  description: 'The transcript or memory lines this change rests on; the reviewer checks each one, and flags a change without any.',
  items: {
    type: 'object',
    properties: {
      source: {
        type: 'string',
        description: `A session id or "${TRANSCRIPTS_ALIAS}/<session>.jsonl" for a conversation; a memory file path for an existing memory`,
      },
      line: { type: 'integer', minimum: 1, description: 'Its line number, as the tools show it' },
      quote: { type: 'string', description: 'A few words copied exactly from that line' },
    },
    required: ['source', 'line', 'quote'],
  },
};

/** The writing tools: they stage changes for the user to review; nothing is written to disk by them. */
export const WRITE_TOOLS: readonly LlmToolDefinition[] = [
  {
    name: 'write_file',
    description: 'Create or replace a Markdown file in the memory folder with the given content.',
    input_schema: {
      type: 'object',
      properties: {
        path: pathProperty('File to write, relative to the memory folder'),
        content: { type: 'string', description: 'The whole new content' },
        evidence: evidenceProperty,
      },
      required: ['path', 'content'],
    },
  },
  {
    name: 'edit_file',
    description: 'Replace one exact, unique piece of text in a memory file with new text.',
    input_schema: {
      type: 'object',
      properties: {
        path: pathProperty('File to edit, relative to the memory folder'),
        old_string: { type: 'string', description: 'The exact text to replace; it must occur exactly once' },
        new_string: { type: 'string', description: 'The text to put in its place' },
        evidence: evidenceProperty,
      },
      required: ['path', 'old_string', 'new_string'],
    },
  },
  {
    name: 'delete_file',
    description: 'Delete a memory topic file (MEMORY.md itself cannot be deleted).',
    input_schema: {
      type: 'object',
      properties: { path: pathProperty('File to delete, relative to the memory folder'), evidence: evidenceProperty },
      required: ['path'],
    },
  },
];

export const JOB_TOOLS: readonly LlmToolDefinition[] = [...READ_TOOLS, ...WRITE_TOOLS];
