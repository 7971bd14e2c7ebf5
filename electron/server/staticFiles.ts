import { promises as fs } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * Resolves a URL path to a file inside the built renderer, never outside it. Unknown paths without an
 * extension fall back to index.html so the single-page app can route them.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const candidate = join(root, relative);
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  const fallbacks = extname(relative) === '' ? [join(root, 'index.html')] : [];
  for (const path of [candidate, ...fallbacks]) {
    try {
      const stats = await fs.stat(path);
      if (!stats.isFile()) continue;
      return { body: await fs.readFile(path), contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' };
    } catch {
      continue;
    }
  }
  return null;
}
