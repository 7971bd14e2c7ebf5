/**
 * A stand-in for the app that gets killed: it saves two versions of one memory file in turn, for ever, through
 * the real safe writer. It prints `ready` once its first save (which clears what a killed predecessor left) is
 * done. writerKilled.test.ts bundles it and runs it with plain Node.
 */
import { SafeWriter } from '../../../electron/core/fs/safeWriter';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { KILLED_WRITER_VERSIONS } from './killedWriterVersions';

const [root, relativePath] = process.argv.slice(2);
const [versionA, versionB] = KILLED_WRITER_VERSIONS;
const writer = new SafeWriter();

async function saveNext(): Promise<void> {
  const current = await writer.readCurrent(root, relativePath);
  const next = current.hash === contentHash(versionA) ? versionB : versionA;
  await writer.write(root, relativePath, next, current.hash ?? 'absent');
}

await saveNext();
process.stdout.write('ready\n');
for (;;) await saveNext();
