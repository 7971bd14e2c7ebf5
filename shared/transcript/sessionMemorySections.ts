import type { SessionMemorySection } from './transcriptOutline';

const HEADER = /^#\s+(.+?)\s*#*\s*$/;
const ITALIC_LINE = /^_(.+)_\s*$/;

/**
 * Splits a session-memory `summary.md` into its `# ` sections (claude-code-state.md §7.8): each keeps the
 * template's italic guidance line apart from the content written under it. Text before the first header, if
 * any, becomes an untitled section so nothing is lost.
 */
export function parseSessionMemorySections(text: string): SessionMemorySection[] {
  const sections: SessionMemorySection[] = [];
  let title: string | null = null;
  let body: string[] = [];
  const flush = () => {
    if (title === null && body.join('').trim() === '') return;
    let description: string | null = null;
    const firstContent = body.findIndex((line) => line.trim() !== '');
    if (title !== null && firstContent >= 0) {
      const match = ITALIC_LINE.exec(body[firstContent].trim());
      if (match) {
        description = match[1];
        body = body.slice(firstContent + 1);
      }
    }
    sections.push({ title: title ?? '', description, content: body.join('\n').trim() });
  };
  let inFence = false;
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const header = inFence ? null : HEADER.exec(line);
    if (header && !line.startsWith('##')) {
      flush();
      title = header[1];
      body = [];
    } else {
      body.push(line);
    }
  }
  flush();
  return sections;
}
