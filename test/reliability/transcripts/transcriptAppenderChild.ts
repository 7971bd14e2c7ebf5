/**
 * Plays Claude Code appending to a live transcript: `total` records, written in random chunks of 1 to 300 bytes
 * that cut lines and multi-byte characters anywhere, with short pauses. Bundled and run by followExactlyOnce.test.ts.
 */
import { appendFileSync } from 'node:fs';
import { recordText } from './followedRecord';

const [transcript, totalText] = process.argv.slice(2);
const total = Number(totalText);
const pause = new Int32Array(new SharedArrayBuffer(4));

let pending = Buffer.alloc(0);
for (let seq = 0; seq < total || pending.length > 0;) {
  while (pending.length < 400 && seq < total) {
    pending = Buffer.concat([pending, Buffer.from(`${JSON.stringify({ type: 'user', seq, text: recordText(seq) })}\n`)]);
    seq++;
  }
  const size = Math.min(pending.length, 1 + Math.floor(Math.random() * 300));
  appendFileSync(transcript, pending.subarray(0, size));
  pending = pending.subarray(size);
  if (Math.random() < 0.5) Atomics.wait(pause, 0, 0, 1 + Math.floor(Math.random() * 3));
}
