/** A problem found on one item (a file, a folder, a setting); the rest of the home still loads. */
export interface ItemWarning {
  readonly code: WarningCode;
  readonly message: string;
  /** Absolute path of the item the warning is about, when there is one. */
  readonly path: string | null;
}

export type WarningCode =
  | 'unreadable'
  | 'broken-symlink'
  | 'empty-file'
  | 'binary-file'
  | 'invalid-utf8'
  | 'invalid-json-line'
  | 'line-too-long'
  | 'settings-invalid-json'
  | 'settings-ignored'
  | 'settings-invalid-path'
  | 'frontmatter-executable'
  | 'frontmatter-invalid'
  | 'not-a-directory'
  | 'snapshot-invalid'
  /** A folder that resolves, through a symlink, outside the project (or config root) it belongs to: never read or written. */
  | 'outside-root';
