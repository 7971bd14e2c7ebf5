/**
 * The real Claude Code CLI writes memory (Writes it stamps with its frontmatter, an Edit whose result carries the
 * patch it applied, calls it refuses), and `ccmem history` reconstructs every version byte for byte from what it
 * left behind, on a data folder that never saw those files change.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { sanitizePathPrefix } from '../../../shared/claude/sanitizePath';
import { answerClaudeCodeSideCall, createClaudeCodeHome, type ClaudeCodeHome } from '../../helpers/claudeCode/claudeCodeHome';
import { describeWithClaudeCode } from '../../helpers/claudeCode/describeWithClaudeCode';
import { startFakeAnthropicServer, textTurn, toolUseTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { ccmem } from '../../helpers/ccmem';

describeWithClaudeCode('memory written by the real Claude Code, reconstructed', (binary) => {
  let fake: FakeAnthropicServer;
  let home: ClaudeCodeHome;

  beforeAll(async () => {
    fake = await startFakeAnthropicServer({ answerSideCall: answerClaudeCodeSideCall });
    home = await createClaudeCodeHome({ binary, apiUrl: fake.url });
  });
  afterAll(async () => {
    await fake.close();
    await home.dispose();
  });

  it(
    'rebuilds each version Claude Code wrote, stamp and patch included, and leaves out the calls it refused',
    { timeout: 120_000 },
    async () => {
      const project = await home.project('tea');
      const memory = join(home.configDir, 'projects', sanitizePathPrefix(project), 'memory');
      const topic = join(memory, 'feedback_tea.md');
      const args = ['--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits'];
      fake.enqueue(
        toolUseTurn([
          {
            name: 'Write',
            input: {
              file_path: topic,
              content: '---\nname: Tea\ndescription: likes green tea\ntype: feedback\n---\n\nThe user likes green tea.\n',
            },
          },
        ]),
        toolUseTurn([
          { name: 'Write', input: { file_path: join(memory, 'MEMORY.md'), content: '- [Tea](feedback_tea.md) — green tea\n' } },
        ]),
        toolUseTurn([
          { name: 'Edit', input: { file_path: topic, old_string: 'likes green tea.', new_string: 'likes green tea, no sugar.' } },
        ]),
        textTurn('Saved.'),
      );
      const first = await home.run(['-p', 'Remember that I like green tea', ...args], { cwd: project });
      expect(first.result, first.stderr).toMatchObject({ is_error: false });
      fake.enqueue(
        // Refused: no such text, and no such tool in this version. Nothing changes.
        toolUseTurn([{ name: 'Edit', input: { file_path: topic, old_string: 'no milk', new_string: 'no milk ever' } }]),
        toolUseTurn([{ name: 'MultiEdit', input: { file_path: topic, edits: [{ old_string: 'tea', new_string: 'coffee' }] } }]),
        toolUseTurn([{ name: 'Edit', input: { file_path: topic, old_string: 'no sugar', new_string: 'no sugar, no milk' } }]),
        textTurn('Updated.'),
      );
      const second = await home.run(['-p', 'And no milk', ...args], { cwd: project });
      expect(second.result, second.stderr).toMatchObject({ is_error: false });

      const env = { HOME: home.home, CLAUDE_CONFIG_DIR: home.configDir, CCMEM_DATA_DIR: join(home.tmp, 'data') };
      const listed = await ccmem(['history', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
      const { changeSets } = JSON.parse(listed.stdout) as {
        changeSets: {
          cause: string;
          sessionId: string;
          turnUuid: string | null;
          reconstructed: boolean;
          files: { path: string; kind: string; after: string | null; certainty: string }[];
        }[];
      };
      expect(changeSets.map((c) => [c.cause, c.sessionId, c.reconstructed, c.files.map((f) => [f.path, f.kind, f.certainty])])).toEqual([
        ['session', second.result?.session_id, true, [['feedback_tea.md', 'modified', 'exact']]],
        [
          'session',
          first.result?.session_id,
          true,
          [
            ['feedback_tea.md', 'added', 'exact'],
            ['MEMORY.md', 'added', 'exact'],
          ],
        ],
      ]);
      expect(changeSets.every((c) => typeof c.turnUuid === 'string')).toBe(true);
      // The newest version is exactly the file on disk: stamps, patches and refusals were all followed.
      expect(changeSets[0].files[0].after).toBe(contentHash(await readFile(topic)));
      expect(changeSets[1].files[1].after).toBe(contentHash(await readFile(join(memory, 'MEMORY.md'))));

      const blame = await ccmem(['blame', '--project', sanitizePathPrefix(project), '--file', 'feedback_tea.md', '--json'], env);
      expect(blame.code, blame.stderr).toBe(0);
      const lines = (JSON.parse(blame.stdout) as { lines: { text: string; sessionId: string; certainty: string }[] }).lines;
      expect(lines.find((l) => l.text.includes('no sugar, no milk'))).toMatchObject({
        sessionId: second.result?.session_id,
        certainty: 'exact',
      });
      expect(lines.find((l) => l.text.startsWith('name:'))).toMatchObject({ sessionId: first.result?.session_id, certainty: 'exact' });
    },
  );
});
