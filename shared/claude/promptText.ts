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

const COMMAND_NAME = /<command-name>\s*(\/?[^<\s]+)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const LOCAL_COMMAND_CAVEAT = /^\s*<local-command-caveat>/;

/**
 * A slash command with arguments as the person typed it (`/review Audit the …`), or null when the text is no
 * command or one without arguments (`/clear`, `/compact`): the arguments are what the person wrote.
 */
export function commandWithArguments(text: string): string | null {
  const name = COMMAND_NAME.exec(text)?.[1];
  const args = COMMAND_ARGS.exec(text)?.[1]?.trim();
  if (!name || !args) return null;
  return `${name.startsWith('/') ? name : `/${name}`} ${args}`;
}

const COMMAND_TAGS = /<(command-name|command-message|command-args)>[\s\S]*?<\/\1>/g;

/** A slash command as the person typed it: its name with the slash, and its arguments ('' for none). */
export interface RecordedSlashCommand {
  readonly name: string;
  readonly args: string;
}

/**
 * The slash command a user text records, when the text is nothing but Claude Code's record of one (its
 * `<command-name>`, `<command-message>` and `<command-args>` tags), or null for any other text.
 */
export function recordedSlashCommand(text: string): RecordedSlashCommand | null {
  const name = COMMAND_NAME.exec(text)?.[1];
  if (!name || text.replace(COMMAND_TAGS, '').trim() !== '') return null;
  return { name: name.startsWith('/') ? name : `/${name}`, args: COMMAND_ARGS.exec(text)?.[1]?.trim() ?? '' };
}

/** Whether a user line is Claude Code's caveat before a local command's lines (the command itself is no prompt). */
export function isLocalCommandCaveat(content: unknown): boolean {
  const text = userContentText(content);
  return text !== null && LOCAL_COMMAND_CAVEAT.test(text);
}

/**
 * What a person typed in a user message, or null when it holds nothing typed (tool results, command wrappers
 * without arguments, injected context). IDE sessions put context blocks first (`<ide_opened_file>`,
 * `<ide_selection>`) and the typed text in a later block; a slash command's arguments are typed text too.
 */
export function typedPromptText(content: unknown): string | null {
  return typedPrompt(content)?.text ?? null;
}

/** `typedPromptText`, saying whether the text is a slash command's (`/review …`). */
export function typedPrompt(content: unknown): { readonly text: string; readonly command: boolean } | null {
  const texts: string[] = [];
  if (typeof content === 'string') texts.push(content);
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (block && typeof block === 'object' && (block as { type?: unknown }).type === 'text') {
        const text = (block as { text?: unknown }).text;
        if (typeof text === 'string') texts.push(text);
      }
    }
  }
  for (const text of texts) {
    if (isMeaningfulPrompt(text)) return { text, command: false };
    const command = commandWithArguments(text);
    if (command !== null) return { text: command, command: true };
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
