/** The day of an ISO time, as the archive's tables show it; a dash when there is none. */
export function day(iso: string | null): string {
  return iso === null ? '—' : iso.slice(0, 10);
}
