import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSubagentFiles } from '../../../../electron/core/layout/subagentFiles';
import { seededUuid } from '../../../fixtures/sessionLines';

let projectDir: string;
const session = seededUuid('subagent-files-session');
const otherSession = seededUuid('subagent-files-other');

/** A 2.0 sibling agent file's first line, with `before` written ahead of its sessionId field. */
function siblingLine(sessionId: string, before: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ ...before, parentUuid: null, isSidechain: true, type: 'user', sessionId, message: { role: 'user', content: 'go' } })}\n`;
}

beforeAll(async () => {
  projectDir = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-subagent-files-')));
  await writeFile(join(projectDir, `${session}.jsonl`), '');
  // Many siblings of two sessions, interleaved: every other one is this session's.
  for (let index = 0; index < 40; index += 1) {
    const id = `a${String(index).padStart(3, '0')}`;
    await writeFile(join(projectDir, `agent-${id}.jsonl`), siblingLine(index % 2 === 0 ? session : otherSession));
  }
  // A first line that names its session only after 5 KB of another field.
  await writeFile(join(projectDir, 'agent-zlate.jsonl'), siblingLine(session, { summary: 'x'.repeat(5000) }));
  await mkdir(join(projectDir, session, 'subagents'), { recursive: true });
  await writeFile(join(projectDir, session, 'subagents', 'agent-b2.jsonl'), siblingLine(session));
  await writeFile(join(projectDir, session, 'subagents', 'agent-b1.jsonl'), siblingLine(session));
  await writeFile(join(projectDir, session, 'subagents', 'agent-b1.meta.json'), JSON.stringify({ agentType: 'Explore', spawnDepth: 1 }));
});

afterAll(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

describe('findSubagentFiles', () => {
  it('lists the subagents folder, then the session’s sibling files, each in name order', async () => {
    const found = await findSubagentFiles(join(projectDir, `${session}.jsonl`), session);
    const expectedSiblings = Array.from({ length: 20 }, (_, half) => `a${String(half * 2).padStart(3, '0')}`);
    expect(found.map((file) => file.agentId)).toEqual(['b1', 'b2', ...expectedSiblings, 'zlate']);
    expect(found.slice(0, 2).map((file) => file.layout)).toEqual(['subagents-folder', 'subagents-folder']);
    expect(found[0].meta).toMatchObject({ agentType: 'Explore', spawnDepth: 1 });
    expect(found[1].meta).toBeNull();
    expect(new Set(found.slice(2).map((file) => file.layout))).toEqual(new Set(['sibling-file']));
  });

  it('reads further into a sibling whose first line names its session late', async () => {
    const found = await findSubagentFiles(join(projectDir, `${otherSession}.jsonl`), otherSession);
    expect(found.map((file) => file.agentId)).toHaveLength(20);
    expect(found.map((file) => file.agentId)).not.toContain('zlate');
    const owners = new Map();
    await findSubagentFiles(join(projectDir, `${session}.jsonl`), session, owners);
    expect(owners.get(join(projectDir, 'agent-zlate.jsonl'))).toMatchObject({ sessionId: session });
  });
});
