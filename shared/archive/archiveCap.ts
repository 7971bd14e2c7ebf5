/** The bounds of the archive's size cap, shared by the request schema, the CLI and Settings (which must not bundle zod). */

/** Up to 1 PiB: a cap beyond any disk. */
export const MAX_ARCHIVE_CAP_BYTES = 2 ** 50;
/** The smallest cap worth setting: below it the archive would keep almost nothing. */
export const MIN_ARCHIVE_CAP_BYTES = 1024 * 1024;
