/** The index file of every memory folder (Claude Code's ENTRYPOINT_NAME): loaded into each session, never a topic. */
export const INDEX_FILE_NAME = 'MEMORY.md';
