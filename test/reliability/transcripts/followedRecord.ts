/** The text of record `seq`: multi-byte characters of every UTF-8 length, so a chunk boundary can split any of them. */
export function recordText(seq: number): string {
  return `record ${seq}: café 日本語 🙂 ${'ü€𝄞'.repeat(seq % 7)}`;
}
