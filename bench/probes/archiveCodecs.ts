import { closeSync, openSync, readSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BROTLI_QUALITY, MAX_FRAME_BYTES } from '../../electron/core/history/archive/archiveFrames';
import { serveProbe } from './probeProtocol';

export interface ArchiveCodecsInput {
  readonly files: readonly string[];
  /** Transcript bytes to compress with each codec (the first files' bytes, up to this much). */
  readonly sampleBytes: number;
}

export interface CodecFigure {
  readonly mbps: number;
  /** Compressed size as a percentage of the input. */
  readonly percent: number;
}

export interface ArchiveCodecsOutput {
  readonly sampleBytes: number;
  readonly gzip1: CodecFigure;
  readonly gzip6: CodecFigure;
  readonly brotli: CodecFigure;
}

/** Up to `limit` bytes of the transcripts, in the archive's frame-sized slices. */
function sample(files: readonly string[], limit: number): Buffer[] {
  const slices: Buffer[] = [];
  let total = 0;
  for (const file of files) {
    const fd = openSync(file, 'r');
    try {
      for (;;) {
        const buffer = Buffer.allocUnsafe(Math.min(MAX_FRAME_BYTES, limit - total));
        if (buffer.length === 0) return slices;
        const read = readSync(fd, buffer, 0, buffer.length, null);
        if (read === 0) break;
        slices.push(buffer.subarray(0, read));
        total += read;
      }
    } finally {
      closeSync(fd);
    }
  }
  return slices;
}

function measure(slices: readonly Buffer[], compress: (slice: Buffer) => Buffer): CodecFigure {
  const bytes = slices.reduce((sum, slice) => sum + slice.length, 0);
  const started = performance.now();
  let out = 0;
  for (const slice of slices) out += compress(slice).length;
  const seconds = (performance.now() - started) / 1000;
  return { mbps: bytes / 1e6 / seconds, percent: (out / bytes) * 100 };
}

/**
 * The codec choice behind the archive: the same transcript bytes in the archive's 1 MiB slices, compressed on one
 * thread with gzip at levels 1 and 6 and with brotli at the quality the archive uses.
 */
serveProbe<ArchiveCodecsInput, ArchiveCodecsOutput>(({ files, sampleBytes }) => {
  const slices = sample(files, sampleBytes);
  const brotliOptions = (size: number) => ({
    params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: size },
  });
  return Promise.resolve({
    sampleBytes: slices.reduce((sum, slice) => sum + slice.length, 0),
    gzip1: measure(slices, (slice) => gzipSync(slice, { level: 1 })),
    gzip6: measure(slices, (slice) => gzipSync(slice, { level: 6 })),
    brotli: measure(slices, (slice) => brotliCompressSync(slice, brotliOptions(slice.length))),
  });
});
