import { promises as fs } from 'node:fs';
import { asMemoryType, type MemoryFileSummary } from '../../../shared/model/memory';
import type { ItemWarning } from '../../../shared/model/warnings';
import { describeFsError, readHead, warning } from '../fs/readSafely';
import { frontmatterField, MAX_FRONTMATTER_CHARS, parseFrontmatter } from './frontmatter';
import type { FoundMemoryFile } from '../layout/memoryFolderScan';

/** Enough of a file to hold any frontmatter we are willing to parse. */
const HEAD_BYTES = MAX_FRONTMATTER_CHARS + 4096;

/** Reads one topic file's header fields; problems become warnings on that file. */
export async function summarizeMemoryFile(found: FoundMemoryFile): Promise<MemoryFileSummary> {
  const warnings: ItemWarning[] = [];
  const scope = found.relativePath.startsWith('team/') ? 'team' : 'private';
  const base = {
    relativePath: found.relativePath,
    absolutePath: found.absolutePath,
    scope,
  } as const;
  let head;
  try {
    head = await readHead(found.absolutePath, HEAD_BYTES);
  } catch (error) {
    const stats = await fs.stat(found.absolutePath).catch(() => null);
    return {
      ...base,
      name: null,
      description: null,
      type: null,
      rawType: null,
      originSessionId: null,
      variant: 'none',
      mtime: new Date(stats?.mtimeMs ?? 0).toISOString(),
      bytes: stats?.size ?? 0,
      warnings: [warning('unreadable', `Cannot read memory file: ${describeFsError(error)}`, found.absolutePath)],
    };
  }
  const common = { ...base, mtime: new Date(head.mtimeMs).toISOString(), bytes: head.size };
  if (head.bytes.includes(0)) {
    warnings.push(warning('binary-file', 'Not a text file: it holds binary data', found.absolutePath));
    return { ...common, name: null, description: null, type: null, rawType: null, originSessionId: null, variant: 'none', warnings };
  }
  const parsed = parseFrontmatter(head.bytes.toString('utf8'));
  if (parsed.variant === 'executable')
    warnings.push(warning('frontmatter-executable', parsed.error ?? 'Executable frontmatter refused', found.absolutePath));
  else if (parsed.error) warnings.push(warning('frontmatter-invalid', parsed.error, found.absolutePath));
  const rawType = frontmatterField(parsed.data, 'type');
  return {
    ...common,
    name: frontmatterField(parsed.data, 'name'),
    description: frontmatterField(parsed.data, 'description'),
    type: asMemoryType(rawType),
    rawType: rawType !== null && asMemoryType(rawType) === null ? rawType : null,
    originSessionId: frontmatterField(parsed.data, 'originSessionId'),
    variant: parsed.variant,
    warnings,
  };
}
