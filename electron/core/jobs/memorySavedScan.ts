import { readJsonlLines } from '../jsonl/fileLineReader';

const MEMORY_SAVED = Buffer.from('"memory_saved"');

/**
 * Whether a session transcript holds a `system/memory_saved` line: Claude Code's extractor (or a dream it
 * triggered) reported saving memories. Streams the file; only lines naming the subtype are parsed.
 */
export async function sessionReportedMemorySaved(path: string): Promise<boolean> {
  let found = false;
  await readJsonlLines(path, {
    fromOffset: 0,
    onLine: (line) => {
      if (found || !line.includes(MEMORY_SAVED)) return;
      try {
        const record = JSON.parse(line.toString('utf8')) as { type?: unknown; subtype?: unknown };
        found = record.type === 'system' && record.subtype === 'memory_saved';
      } catch {
        // A damaged line reports nothing.
      }
    },
  });
  return found;
}
