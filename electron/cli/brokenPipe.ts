import type { EventEmitter } from 'node:events';

/**
 * A reader that stops early (`ccmem transcript … | head`) closes the pipe: that is its choice, not an error, so the
 * command ends at once with no stack trace. Any other write error still surfaces.
 */
export function endQuietlyOnBrokenPipe(stream: EventEmitter, exit: (code: number) => void): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    exit(0);
  });
}
