/** Lines Claude Code skips when it picks a session's first prompt: XML-ish command wrappers and interruptions. */
const SKIP_FIRST_PROMPT = /^(?:\s*<[a-z][\w-]*[\s>]|\[Request interrupted by user[^\]]*\])/;

const MAX_TITLE_LENGTH = 200;

/** The text of a user message's content (a string or an array of blocks), or null when it has none. */
export function userContentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  for (const block of content) {
    if (block && typeof block === 'object' && (block as { type?: unknown }).type === 'text') {
      const text = (block as { text?: unknown }).text;
      if (typeof text === 'string') return text;
    }
  }
  return null;
}

/** Whether a user line's text counts as a human prompt for the title. */
export function isMeaningfulPrompt(text: string): boolean {
  return text.trim() !== '' && !SKIP_FIRST_PROMPT.test(text);
}

/** One line, trimmed to a length a list can show. */
export function toTitle(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_TITLE_LENGTH ? `${oneLine.slice(0, MAX_TITLE_LENGTH - 1)}…` : oneLine;
}
