/** The two versions the killed writer saves in turn: different contents and lengths, so a torn file matches neither. */
export const KILLED_WRITER_VERSIONS = [
  `---\nname: killed\n---\n${'Version A. '.repeat(20_000)}\n`,
  `---\nname: killed\n---\n${'Version B, a different length. '.repeat(3_000)}\n`,
] as const;
