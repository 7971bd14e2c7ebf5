/** Error codes the renderer can act on; Electron only passes an Error's message through IPC, so codes travel in the envelope. */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'OUTSIDE_ROOT'
  | 'CONFLICT'
  | 'LOCK_HELD'
  | 'READ_ONLY'
  | 'FORBIDDEN'
  | 'UNSUPPORTED'
  | 'INTERNAL'
  /** The page cannot reach the engine right now (the web shell's server stopped, a tunnel dropped). */
  | 'UNAVAILABLE';

export interface AppError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: unknown;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ErrorCode, message: string, details?: unknown): Result<T> {
  return details === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, details } };
}

/** An error thrown inside the engine that carries a code for the Result envelope. */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
