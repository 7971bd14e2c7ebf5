/**
 * The figures `npm run reliability` prints, in the order. Tests record counts under these ids
 * (figureLog.ts); the report sums them across test files and formats one line each. A figure no test
 * recorded is printed as "n/a" with what it still needs, never as a made-up number.
 */
export interface FigureSpec {
  /** Printed before the value. */
  readonly label: string;
  /** What must exist before a test can measure this figure (shown when nothing was recorded). */
  readonly needs: string;
  /** Names of the counts a record carries. */
  readonly counts: readonly string[];
  /** The count that must be zero for the run to pass, if any. */
  readonly mustBeZero?: string;
  /** Parts that are expected to be reported separately (per category, per kind, per rule). */
  readonly expectedParts?: Readonly<Record<string, string>>;
  readonly format: (counts: Readonly<Record<string, number>>) => string;
}

function percent(numerator: number, denominator: number): string {
  if (denominator === 0) return 'n/a (nothing measured)';
  return `${((100 * numerator) / denominator).toFixed(1)}% (${numerator}/${denominator})`;
}

const SAFE_WRITER = 'the safe writer electron/core/fs/safeWriter.ts (#3)';
const HISTORY = 'the history store electron/core/history (#3/#5)';
const TRANSCRIPT_FOLLOWER = 'the offset-following transcript reader in electron/core/catalog (#4)';
const LOCK = 'the lock protocol electron/core/lock/consolidationLock.ts (#6)';
const SECRETS = 'the secret detection in shared/memory (#3)';

export const figureCatalog = {
  badInputs: {
    label: 'bad inputs tried',
    needs: 'nothing',
    counts: ['tried'],
    expectedParts: {
      paths: 'foundation',
      parsers: 'foundation',
      ipc: 'foundation',
      'web shell': 'foundation',
      xss: 'the built web UI (run through npm run reliability)',
      transcripts: TRANSCRIPT_FOLLOWER,
      files: SAFE_WRITER,
      lock: LOCK,
      secrets: SECRETS,
    },
    format: (c) => String(c.tried),
  },
  faults: {
    label: 'faults injected and survived',
    needs: 'nothing',
    counts: ['injected', 'survived'],
    expectedParts: {
      'writer killed': SAFE_WRITER,
      ENOSPC: SAFE_WRITER,
      EIO: SAFE_WRITER,
      EACCES: SAFE_WRITER,
      EMFILE: SAFE_WRITER,
      'read-only file': SAFE_WRITER,
      'symlink out of the memory folder': SAFE_WRITER,
      'follower killed': TRANSCRIPT_FOLLOWER,
      'transcript truncated': TRANSCRIPT_FOLLOWER,
      'transcript truncated and regrown': TRANSCRIPT_FOLLOWER,
      'transcript replaced': TRANSCRIPT_FOLLOWER,
      'transcript deleted': TRANSCRIPT_FOLLOWER,
    },
    format: (c) => `${c.survived}/${c.injected}`,
  },
  dataLost: {
    label: 'data lost',
    needs: `${SAFE_WRITER} and ${HISTORY}`,
    counts: ['lost', 'checked'],
    mustBeZero: 'lost',
    format: (c) => `${c.lost} (of ${c.checked} versions checked)`,
  },
  tornReads: {
    label: 'torn reads',
    needs: SAFE_WRITER,
    counts: ['torn', 'reads', 'absent'],
    mustBeZero: 'torn',
    format: (c) =>
      `${c.torn} (of ${c.reads} reads during writes; ${c.absent} found the file briefly absent while a version was swapped in)`,
  },
  tempFilesLeft: {
    label: 'temp files left',
    needs: SAFE_WRITER,
    counts: ['left', 'starts'],
    mustBeZero: 'left',
    format: (c) => `${c.left} (after ${c.starts} restarts)`,
  },
  conflicts: {
    label: 'conflicts detected and recovered',
    needs: `${SAFE_WRITER} and ${HISTORY}`,
    counts: ['detected', 'recovered', 'foreignWrites'],
    format: (c) => `${c.recovered}/${c.detected} (${c.foreignWrites} foreign writes raced)`,
  },
  outOfRootWrites: {
    label: 'out-of-root writes',
    needs: 'nothing',
    counts: ['writes', 'attempts'],
    mustBeZero: 'writes',
    format: (c) => `${c.writes} (of ${c.attempts} hostile requests and paths)`,
  },
  outOfRootReads: {
    label: 'reads outside the root',
    needs: 'the change-set writer electron/core/changes/changeSetWriter.ts (#20)',
    counts: ['reads', 'attempts'],
    mustBeZero: 'reads',
    format: (c) => `${c.reads} (of ${c.attempts} hostile requests and paths)`,
  },
  teamSecrets: {
    label: 'secrets reaching team memory',
    needs: 'the change-set writer electron/core/changes/changeSetWriter.ts (#20)',
    counts: ['landed', 'attempts'],
    mustBeZero: 'landed',
    format: (c) => `${c.landed} (of ${c.attempts} attempts through every path)`,
  },
  codeExecutions: {
    label: 'code executions',
    needs: 'nothing',
    counts: ['executions', 'attempts'],
    mustBeZero: 'executions',
    format: (c) => `${c.executions} (of ${c.attempts} executable inputs)`,
  },
  outboundRequests: {
    label: 'outbound requests from the renderer',
    needs: 'the built web UI and Chromium (run through npm run reliability)',
    counts: ['requests', 'payloads'],
    mustBeZero: 'requests',
    format: (c) => `${c.requests} (with ${c.payloads} XSS payloads rendered)`,
  },
  electronegativity: {
    label: 'Electronegativity findings',
    needs: 'nothing',
    counts: ['findings', 'justified', 'unjustified'],
    mustBeZero: 'unjustified',
    format: (c) => `${c.findings} (${c.justified} justified in the reviewed allow-list, ${c.unjustified} unjustified)`,
  },
  keysSentAbroad: {
    label: 'keys sent to a foreign host',
    needs: 'nothing',
    counts: ['keys', 'attempts'],
    mustBeZero: 'keys',
    format: (c) => `${c.keys} (of ${c.attempts} attempts through the web shell and the settings file)`,
  },
  secretDetection: {
    label: 'secret recall and false-positive rate',
    needs: SECRETS,
    counts: ['found', 'planted', 'falseAlarms', 'lookAlikes'],
    format: (c) => `recall ${percent(c.found, c.planted)}, false positives ${percent(c.falseAlarms, c.lookAlikes)}`,
  },
} satisfies Record<string, FigureSpec>;

export type FigureId = keyof typeof figureCatalog;
