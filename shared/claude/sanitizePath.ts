/** Claude Code truncates project-folder names to this many characters and appends a hash. */
export const MAX_SANITIZED_LENGTH = 200;

/**
 * Claude Code's project-folder slug for a path: every UTF-16 code unit outside [A-Za-z0-9] becomes '-'.
 * Longer results are cut to 200 characters plus '-' and a hash; the CLI and the SDK hash differently,
 * so callers compare long slugs by prefix only (see `slugMatchesPath`) and never recompute the hash.
 */
export function sanitizePathPrefix(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-');
}

/** Whether a project folder name is the slug Claude Code would make for `path`. */
export function slugMatchesPath(slug: string, path: string): boolean {
  const sanitized = sanitizePathPrefix(path);
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return slug === sanitized;
  return slug.startsWith(`${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-`);
}

/** A readable stand-in for a slug whose real path is unknown; for display only, never used as a path. */
export function slugDisplayName(slug: string): string {
  const windowsDrive = /^([A-Za-z])--(.*)$/.exec(slug);
  if (windowsDrive) return `${windowsDrive[1]}:\\${windowsDrive[2].replace(/-/g, '\\')}`;
  if (slug.startsWith('-')) return slug.replace(/-/g, '/');
  return slug;
}
