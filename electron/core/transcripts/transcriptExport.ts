import { recordedCommand, type RecordedCommand } from '../../../shared/claude/promptText';
import { assertNever } from '../../../shared/result';
import type { ContentBlock, FileEdit, ImagePlaceholder, ToolCall, TranscriptEntry } from '../../../shared/transcript/transcriptEntry';
import type { TranscriptExportFormat } from '../../../shared/transcript/transcriptOutline';

/** What the export's header says about the session. */
export interface ExportHeader {
  /** Claude Code deleted the transcript: the export comes from the app's archived copy. */
  readonly archived?: boolean;
  readonly title: string | null;
  readonly sessionId: string;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
}

const ARCHIVED_NOTE = "Claude Code deleted this transcript; exported from this app's archived copy";

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function imageLabel(image: ImagePlaceholder): string {
  return `[image${image.mediaType ? ` ${image.mediaType}` : ''}${image.bytes !== null ? `, ${formatBytes(image.bytes)}` : ''}]`;
}

function speaker(entry: TranscriptEntry): string {
  const body = entry.body;
  switch (body.kind) {
    case 'user':
      return body.blocks.every((block) => block.kind === 'tool-result') ? 'Tool result' : entry.isMeta ? 'User (meta)' : 'User';
    case 'assistant':
      return body.model ? `Assistant (${body.model})` : 'Assistant';
    case 'compact-summary':
      return 'Compaction summary';
    case 'compact-boundary':
      return 'Conversation compacted';
    case 'system':
      return `System${body.subtype ? ` · ${body.subtype}` : ''}`;
    case 'attachment':
      return `Attachment${body.attachmentType ? ` · ${body.attachmentType}` : ''}`;
    case 'progress':
      return 'Progress';
    case 'summary':
      return 'Summary';
    case 'metadata':
      return entry.type;
    case 'unknown':
      return `Unknown entry (${entry.type || 'no type'})`;
    case 'unreadable':
      return 'Unreadable line';
    default:
      return assertNever(body);
  }
}

// --- Markdown ---------------------------------------------------------------------------------------------------

/** A fenced block whose fence is longer than any backtick run inside, so content can never close it early. */
function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text}\n${marks}`;
}

/** A command Claude Code recorded in tags, as the person ran it: the command, or what it printed. */
function markdownCommand(command: RecordedCommand): string {
  switch (command.kind) {
    case 'slash':
      return `\`${command.name}\`${command.args ? ` ${command.args}` : ''}`;
    case 'shell':
      return fence(`! ${command.command}`, 'sh');
    case 'output':
      if (command.stdout === '' && command.stderr === '') return '_(printed nothing)_';
      return [command.stdout, command.stderr]
        .filter((text) => text !== '')
        .map((text) => fence(text))
        .join('\n\n');
    default:
      return assertNever(command);
  }
}

function diffText(edit: FileEdit): string {
  return edit.hunks
    .map((hunk) => [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n'))
    .join('\n');
}

function markdownCall(call: ToolCall): string {
  const parts = [`**Tool: ${call.name}**${call.summary ? ` — ${call.summary}` : ''}`];
  if (call.subagent) parts.push(`Sub-agent \`${call.subagent.agentId}\`${call.subagent.agentType ? ` (${call.subagent.agentType})` : ''}`);
  if (call.edit && call.edit.hunks.length > 0) parts.push(fence(diffText(call.edit), 'diff'));
  else parts.push(fence(call.input, 'json'));
  const result = call.result;
  if (result) {
    const output = result.bash ? [result.bash.stdout, result.bash.stderr].filter((part) => part !== '').join('\n') : result.text;
    parts.push(`<details><summary>${result.isError ? 'Error' : 'Result'}</summary>\n\n${fence(output)}\n\n</details>`);
  }
  return parts.join('\n\n');
}

function markdownBlock(block: ContentBlock): string {
  switch (block.kind) {
    case 'text': {
      const command = recordedCommand(block.text);
      if (command) return markdownCommand(command);
      return block.omittedChars > 0 ? `${block.text}\n\n_(${block.omittedChars} more characters in the transcript)_` : block.text;
    }
    case 'thinking':
      if (block.redacted) return '> _Thinking (redacted)_';
      return block.text === ''
        ? '> _Thinking (empty: Claude Code stored no text)_'
        : `<details><summary>Thinking</summary>\n\n${block.text}\n\n</details>`;
    case 'tool-call':
      return markdownCall(block.call);
    case 'tool-result':
      return `<details><summary>${block.result.isError ? 'Tool error' : 'Tool result'}</summary>\n\n${fence(block.result.text)}\n\n</details>`;
    case 'image':
      return imageLabel(block.image);
    case 'document':
      return `[document${block.mediaType ? ` ${block.mediaType}` : ''}${block.bytes !== null ? `, ${formatBytes(block.bytes)}` : ''}]`;
    case 'unknown-block':
      return fence(block.raw, 'json');
    default:
      return assertNever(block);
  }
}

function markdownEntry(entry: TranscriptEntry): string {
  const body = entry.body;
  const heading = `### ${speaker(entry)}${entry.timestamp ? ` · ${entry.timestamp}` : ''}`;
  let content: string;
  switch (body.kind) {
    case 'user':
    case 'assistant':
      content = body.blocks.map(markdownBlock).join('\n\n');
      break;
    case 'compact-summary':
      content = `<details><summary>Summary of the earlier conversation</summary>\n\n${body.text}\n\n</details>`;
      break;
    case 'compact-boundary':
      content = `_${body.trigger ?? 'Compaction'}${body.preTokens !== null ? `: ${body.preTokens} tokens before` : ''}${body.postTokens !== null ? `, ${body.postTokens} after` : ''}_`;
      return `---\n\n${heading}\n\n${content}\n\n---`;
    case 'system': {
      const command = recordedCommand(body.text);
      content = command ? markdownCommand(command) : body.text;
      break;
    }
    case 'attachment':
    case 'progress':
    case 'metadata':
      content = body.text;
      break;
    case 'summary':
      content = body.summary;
      break;
    case 'unknown':
      content = fence(body.raw, 'json');
      break;
    case 'unreadable':
      content = `_Line ${entry.line} could not be read (${body.reason})._`;
      break;
    default:
      return assertNever(body);
  }
  return `${heading}\n\n${content}`;
}

function markdownHeader(header: ExportHeader): string {
  const facts = [
    `- Session: \`${header.sessionId}\``,
    header.cwd ? `- Folder: \`${header.cwd}\`` : null,
    header.gitBranch ? `- Branch: \`${header.gitBranch}\`` : null,
    header.firstTimestamp ? `- From ${header.firstTimestamp} to ${header.lastTimestamp ?? '?'}` : null,
    header.archived ? `- Archived: ${ARCHIVED_NOTE}` : null,
  ].filter((line) => line !== null);
  return `# ${header.title ?? 'Claude Code session'}\n\n${facts.join('\n')}\n\n`;
}

// --- HTML -------------------------------------------------------------------------------------------------------

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);
}

const HTML_STYLE = `
body{font:14px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:960px;margin:0 auto;padding:24px}
header.session{margin-bottom:24px} header.session dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;color:#555}
article{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:10px 14px;margin:10px 0}
article.user{border-left:4px solid #3b6fd8} article.assistant{border-left:4px solid #7a5bd6}
article.compact-boundary{background:#fff8e6;text-align:center;border-style:dashed}
h3{font-size:12px;margin:0 0 6px;color:#5b6472;font-weight:600}
pre{background:#f1f3f6;padding:8px;border-radius:6px;overflow:auto;white-space:pre-wrap;word-break:break-word}
.diff .add{background:#e6f6ea;display:block} .diff .del{background:#fdeaea;display:block}
.tool{border:1px solid #e3e6eb;border-radius:6px;padding:6px 10px;margin:6px 0}
.muted{color:#6b7380} .text{white-space:pre-wrap}
`;

function htmlPre(text: string): string {
  return `<pre>${escapeHtml(text)}</pre>`;
}

/** `markdownCommand`, as HTML. */
function htmlCommand(command: RecordedCommand): string {
  switch (command.kind) {
    case 'slash':
      return `<div class="text"><code>${escapeHtml(command.name)}</code>${command.args ? ` ${escapeHtml(command.args)}` : ''}</div>`;
    case 'shell':
      return htmlPre(`! ${command.command}`);
    case 'output':
      if (command.stdout === '' && command.stderr === '') return '<p class="muted">(printed nothing)</p>';
      return [command.stdout, command.stderr]
        .filter((text) => text !== '')
        .map(htmlPre)
        .join('');
    default:
      return assertNever(command);
  }
}

function htmlDiff(edit: FileEdit): string {
  const lines = edit.hunks.flatMap((hunk) => [
    `<span class="muted">@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</span>`,
    ...hunk.lines.map((line) => {
      const kind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '';
      return `<span class="${kind}">${escapeHtml(line)}</span>`;
    }),
  ]);
  return `<pre class="diff">${lines.join('\n')}</pre>`;
}

function htmlCall(call: ToolCall): string {
  const parts = [`<div class="tool"><strong>${escapeHtml(call.name)}</strong> <span class="muted">${escapeHtml(call.summary)}</span>`];
  if (call.subagent)
    parts.push(
      `<div class="muted">Sub-agent ${escapeHtml(call.subagent.agentId)}${call.subagent.agentType ? ` (${escapeHtml(call.subagent.agentType)})` : ''}</div>`,
    );
  parts.push(
    call.edit && call.edit.hunks.length > 0 ? htmlDiff(call.edit) : `<details><summary>Input</summary>${htmlPre(call.input)}</details>`,
  );
  if (call.result) {
    const output = call.result.bash
      ? [call.result.bash.stdout, call.result.bash.stderr].filter((part) => part !== '').join('\n')
      : call.result.text;
    parts.push(`<details><summary>${call.result.isError ? 'Error' : 'Result'}</summary>${htmlPre(output)}</details>`);
  }
  parts.push('</div>');
  return parts.join('');
}

function htmlBlock(block: ContentBlock): string {
  switch (block.kind) {
    case 'text': {
      const command = recordedCommand(block.text);
      return command ? htmlCommand(command) : `<div class="text">${escapeHtml(block.text)}</div>`;
    }
    case 'thinking':
      if (block.redacted) return '<p class="muted">Thinking (redacted)</p>';
      return block.text === ''
        ? '<p class="muted">Thinking (empty: Claude Code stored no text)</p>'
        : `<details><summary>Thinking</summary><div class="text">${escapeHtml(block.text)}</div></details>`;
    case 'tool-call':
      return htmlCall(block.call);
    case 'tool-result':
      return `<details><summary>${block.result.isError ? 'Tool error' : 'Tool result'}</summary>${htmlPre(block.result.text)}</details>`;
    case 'image':
      return `<p class="muted">${escapeHtml(imageLabel(block.image))}</p>`;
    case 'document':
      return `<p class="muted">[document${block.bytes !== null ? `, ${formatBytes(block.bytes)}` : ''}]</p>`;
    case 'unknown-block':
      return htmlPre(block.raw);
    default:
      return assertNever(block);
  }
}

function htmlEntry(entry: TranscriptEntry): string {
  const body = entry.body;
  const heading = `<h3>${escapeHtml(speaker(entry))}${entry.timestamp ? ` · ${escapeHtml(entry.timestamp)}` : ''}</h3>`;
  let content: string;
  switch (body.kind) {
    case 'user':
    case 'assistant':
      content = body.blocks.map(htmlBlock).join('');
      break;
    case 'compact-summary':
      content = `<details><summary>Summary of the earlier conversation</summary><div class="text">${escapeHtml(body.text)}</div></details>`;
      break;
    case 'compact-boundary':
      content = `<p class="muted">${escapeHtml(body.trigger ?? '')}${body.preTokens !== null ? ` · ${body.preTokens} tokens before` : ''}${body.postTokens !== null ? `, ${body.postTokens} after` : ''}</p>`;
      break;
    case 'system': {
      const command = recordedCommand(body.text);
      content = command ? htmlCommand(command) : `<div class="text">${escapeHtml(body.text)}</div>`;
      break;
    }
    case 'attachment':
    case 'progress':
    case 'metadata':
      content = `<div class="text">${escapeHtml(body.text)}</div>`;
      break;
    case 'summary':
      content = `<div class="text">${escapeHtml(body.summary)}</div>`;
      break;
    case 'unknown':
      content = htmlPre(body.raw);
      break;
    case 'unreadable':
      content = `<p class="muted">Line ${entry.line} could not be read (${body.reason}).</p>`;
      break;
    default:
      return assertNever(body);
  }
  return `<article class="${body.kind}">${heading}${content}</article>\n`;
}

function htmlHeader(header: ExportHeader): string {
  const title = escapeHtml(header.title ?? 'Claude Code session');
  const facts = [
    ['Session', header.sessionId],
    ['Folder', header.cwd],
    ['Branch', header.gitBranch],
    ['From', header.firstTimestamp],
    ['To', header.lastTimestamp],
    ['Archived', header.archived ? ARCHIVED_NOTE : null],
  ]
    .filter(([, value]) => value)
    .map(([label, value]) => `<dt>${label}</dt><dd>${escapeHtml(value as string)}</dd>`)
    .join('');
  // No scripts and no external resources: the file opens the same anywhere, offline.
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${HTML_STYLE}</style></head>\n<body><main><header class="session"><h1>${title}</h1><dl>${facts}</dl></header>\n`;
}

const HTML_FOOTER = '</main></body></html>\n';

/** One piece of an export: the header with the first rows, rows, or the last rows with the footer. */
export function renderExportChunk(
  format: TranscriptExportFormat,
  header: ExportHeader,
  entries: readonly TranscriptEntry[],
  first: boolean,
  last: boolean,
): string {
  if (format === 'markdown') {
    const body = entries.map((entry) => `${markdownEntry(entry)}\n\n`).join('');
    return `${first ? markdownHeader(header) : ''}${body}`;
  }
  return `${first ? htmlHeader(header) : ''}${entries.map(htmlEntry).join('')}${last ? HTML_FOOTER : ''}`;
}

export function exportFileName(sessionId: string, format: TranscriptExportFormat): string {
  return `claude-session-${sessionId}.${format === 'markdown' ? 'md' : 'html'}`;
}
