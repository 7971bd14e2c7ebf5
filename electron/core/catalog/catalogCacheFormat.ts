/**
 * The catalog cache's format version (see catalogCacheSchema.ts), on its own so the scan worker, which writes state
 * files, can name it without bundling the schemas.
 */
export const CATALOG_CACHE_FORMAT = 2;
