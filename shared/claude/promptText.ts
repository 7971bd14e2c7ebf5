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
const OUTPUT_TAGS = /<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>([\s\S]*?)<\/\1>/g;
const SHELL_INPUT = /^\s*<bash-input>([\s\S]*?)<\/bash-input>\s*$/;
const STARTS_WITH_TAG = /^\s*</;

/**
 * What Claude Code records in tags when a person runs a command rather than writing a prompt: a slash command (its
 * name with the slash, its arguments or ''), a shell command typed after `!`, or what a local or shell command printed.
 */
export type RecordedCommand =
  | { readonly kind: 'slash'; readonly name: string; readonly args: string }
  | { readonly kind: 'shell'; readonly command: string }
  | { readonly kind: 'output'; readonly stdout: string; readonly stderr: string };

/** The command a text records, when the text is nothing but Claude Code's tags for one; null for any other text. */
export function recordedCommand(text: string): RecordedCommand | null {
  // Every record opens with a tag: prose is ruled out before any pattern runs over it.
  if (!STARTS_WITH_TAG.test(text)) return null;
  const name = COMMAND_NAME.exec(text)?.[1];
  if (name) {
    if (text.replace(COMMAND_TAGS, '').trim() !== '') return null;
    return { kind: 'slash', name: name.startsWith('/') ? name : `/${name}`, args: COMMAND_ARGS.exec(text)?.[1]?.trim() ?? '' };
  }
  const shell = SHELL_INPUT.exec(text);
  if (shell) return { kind: 'shell', command: shell[1].trim() };
  const outputs = [...text.matchAll(OUTPUT_TAGS)];
  if (outputs.length === 0 || text.replace(OUTPUT_TAGS, '').trim() !== '') return null;
  const printed = (stream: 'stdout' | 'stderr') =>
    outputs
      .filter((match) => match[1].endsWith(stream))
      .map((match) => match[2])
      .join('\n')
      .trim();
  return { kind: 'output', stdout: printed('stdout'), stderr: printed('stderr') };
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
