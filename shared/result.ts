import type { ErrorDetailsByCode } from './errorDetails';
import type { MemoryConflictDetails } from './memory/memoryReview';

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

/** An error of one code, with the details that code carries (see errorDetails.ts). */
export interface CodedAppError<C extends ErrorCode> {
  readonly code: C;
  readonly message: string;
  readonly details?: ErrorDetailsByCode[C];
}

/** One member per code, so checking `code` narrows `details`. */
export type AppError = { readonly [C in ErrorCode]: CodedAppError<C> }[ErrorCode];

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never, C extends ErrorCode = ErrorCode>(code: C, message: string, details?: ErrorDetailsByCode[C]): Result<T> {
  // TypeScript cannot see that an error of a generic code C is the AppError member for C.
  const error = (details === undefined ? { code, message } : { code, message, details }) as AppError;
  return { ok: false, error };
}

/** The both-versions details of a memory file's CONFLICT (other conflicts carry other details, or none). */
export function memoryConflictOf(error: AppError): MemoryConflictDetails | null {
  return error.code === 'CONFLICT' && error.details !== undefined && 'relativePath' in error.details ? error.details : null;
}

/** An error thrown inside the engine that carries a code for the Result envelope. */
export class CodedError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly details?: ErrorDetailsByCode[C],
  ) {
    super(message);
    this.name = 'CodedError';
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
