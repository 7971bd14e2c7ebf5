/** The longest name of one folder entry on the file systems Claude Code runs on (ext4, APFS, NTFS). */
export const MAX_NAME_BYTES = 255;

/** The longest absolute path the system takes: PATH_MAX less its NUL, or Windows' MAX_PATH without long paths. */
export const MAX_PATH_BYTES = process.platform === 'win32' ? 259 : process.platform === 'darwin' ? 1023 : 4095;

/** C0 controls and DEL: a newline in a name splits every listing, log and index line that shows it. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Why a relative path cannot name a file this app writes, or null when it can: it must be canonical (forward
 * slashes, no empty, `.` or `..` part), hold no control character nor backslash (a folder separator on Windows),
 * keep every name within 255 bytes and, with `absolutePath`, the whole path within the system's limit.
 */
export function unusablePathReason(relativePath: string, absolutePath?: string): string | null {
  if (relativePath === '') return 'a file path is needed';
  if (CONTROL_CHARACTER.test(relativePath)) return 'the name holds a control character (a newline, a tab, NUL…)';
  if (relativePath.includes('\\')) return 'a backslash is a folder separator on Windows, not part of a file name';
  const segments = relativePath.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return 'the path has an empty, "." or ".." part';
  if (segments.some((segment) => Buffer.byteLength(segment) > MAX_NAME_BYTES)) return `a name is longer than ${MAX_NAME_BYTES} bytes`;
  if (absolutePath !== undefined && Buffer.byteLength(absolutePath) > MAX_PATH_BYTES)
    return `the whole path is longer than ${MAX_PATH_BYTES} bytes, the system's limit`;
  return null;
}
