/** A UUID as Claude Code writes them (session ids, and so transcript and session folder names), any case. */
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID = new RegExp(`^${UUID_SOURCE}$`, 'i');

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** One string per session of a project under a config root: a map key inside the engine, never shown. */
export function sessionKeyOf(configRoot: string, slug: string, sessionId: string): string {
  return `${configRoot}\0${slug}\0${sessionId}`;
}
