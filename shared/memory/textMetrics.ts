/** UTF-8 length of a string without Buffer (shared code runs in the renderer too); lone surrogates count as U+FFFD. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Claude Code's own rough size measure: about four characters per token. Always shown labelled as an estimate. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Claude Code's `formatFileSize` (utils/format.ts), used inside the MEMORY.md warning line. */
export function formatFileSize(sizeInBytes: number): string {
  const kb = sizeInBytes / 1024;
  if (kb < 1) return `${sizeInBytes} bytes`;
  if (kb < 1024) return `${kb.toFixed(1).replace(/\.0$/, '')}KB`;
  const mb = kb / 1024;
  if (mb < 1024) return `${mb.toFixed(1).replace(/\.0$/, '')}MB`;
  return `${(mb / 1024).toFixed(1).replace(/\.0$/, '')}GB`;
}
