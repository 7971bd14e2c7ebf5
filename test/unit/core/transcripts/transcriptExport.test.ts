import { describe, expect, it } from 'vitest';
import { escapeHtml, renderExportChunk } from '../../../../electron/core/transcripts/transcriptExport';
import type { TranscriptEntry } from '../../../../shared/transcript/transcriptEntry';

const header = { title: 'A <b>title</b>', sessionId: 's', cwd: '/w', gitBranch: 'main', firstTimestamp: null, lastTimestamp: null };
const base = {
  line: 1,
  offset: 0,
  bytes: 10,
  type: 'user',
  uuid: 'u',
  parentUuid: null,
  timestamp: '2026-05-05T10:00:00.000Z',
  isSidechain: false,
  isMeta: false,
  agentId: null,
  danglingParentUuid: null,
};

function entry(body: TranscriptEntry['body'], type = 'user'): TranscriptEntry {
  return { ...base, type, body };
}

describe('transcript export', () => {
  it('fences code so that backticks inside can never close the block', () => {
    const text = renderExportChunk(
      'markdown',
      header,
      [entry({ kind: 'unknown', raw: 'has ``` and ```` inside', omittedChars: 0 }, 'odd')],
      true,
      true,
    );
    expect(text).toContain('`````json\nhas ``` and ```` inside\n`````');
    expect(text.startsWith('# A <b>title</b>\n')).toBe(true);
  });

  it('says when thinking is empty and shows images as placeholders with their size', () => {
    const text = renderExportChunk(
      'markdown',
      header,
      [
        entry(
          {
            kind: 'assistant',
            model: 'm',
            messageId: 'x',
            blocks: [{ kind: 'thinking', text: '', redacted: false }],
            stopReason: null,
            usage: null,
            isApiError: false,
          },
          'assistant',
        ),
        entry({ kind: 'user', blocks: [{ kind: 'image', image: { mediaType: 'image/png', bytes: 2048 } }] }),
      ],
      false,
      false,
    );
    expect(text).toContain('Thinking (empty: Claude Code stored no text)');
    expect(text).toContain('[image image/png, 2.0 KB]');
  });

  it('escapes everything in HTML and closes the page only with the last chunk', () => {
    const attack = entry({ kind: 'user', blocks: [{ kind: 'text', text: '<script>alert("x")</script>', omittedChars: 0 }] });
    const first = renderExportChunk('html', header, [attack], true, false);
    expect(first).not.toContain('<script>');
    expect(first).toContain(escapeHtml('<script>alert("x")</script>'));
    expect(first).toContain('<title>A &lt;b&gt;title&lt;/b&gt;</title>');
    expect(first).not.toContain('</html>');
    expect(renderExportChunk('html', header, [], false, true)).toBe('</main></body></html>\n');
  });

  it('writes a command as it was run, not as the tags Claude Code recorded it in', () => {
    const text = (recorded: string) => ({ kind: 'text' as const, text: recorded, omittedChars: 0 });
    const entries = [
      entry({
        kind: 'user',
        blocks: [
          text(
            '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create <b>TODO</b> app</command-args>',
          ),
        ],
      }),
      entry({ kind: 'user', blocks: [text('<bash-input>git status</bash-input>')] }),
      entry({ kind: 'user', blocks: [text('<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>')] }),
      entry({ kind: 'system', subtype: 'local_command', level: 'info', text: '<local-command-stdout></local-command-stdout>' }, 'system'),
    ];
    const markdown = renderExportChunk('markdown', header, entries, true, true);
    expect(markdown).toContain('`/orchestrator` create <b>TODO</b> app');
    expect(markdown).toContain('```sh\n! git status\n```');
    expect(markdown).toContain('```\nOn branch main\n```');
    expect(markdown).toContain('_(printed nothing)_');
    expect(markdown).not.toMatch(/<(command-name|bash-input|bash-stdout|local-command-stdout)>/);
    const html = renderExportChunk('html', header, entries, true, true);
    expect(html).toContain('<div class="text"><code>/orchestrator</code> create &lt;b&gt;TODO&lt;/b&gt; app</div>');
    expect(html).toContain('<pre>! git status</pre>');
    expect(html).toContain('<pre>On branch main</pre>');
    expect(html).toContain('<p class="muted">(printed nothing)</p>');
    expect(html).not.toMatch(/command-name|bash-input|bash-stdout|local-command-stdout/);
  });
});
