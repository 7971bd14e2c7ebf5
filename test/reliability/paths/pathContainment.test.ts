import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRefSchema } from '../../../shared/contract/requests';
import { validateMemoryDirectory } from '../../../electron/core/layout/settingsFiles';
import { readStaticFile } from '../../../electron/server/staticFiles';
import { recordFigure } from '../support/figureLog';
import { hostilePath } from '../support/hostilePaths';
import { escapesOnWindows, posixLanding, windowsSegments } from '../support/pathOracle';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';

/** The issue asks for at least 100,000 cases at full scale; they are shared by the targets below. */
const CASES = atScale(3_000, 100_000);

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-paths-')));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false; // ENOENT, ENAMETOOLONG, ENOTDIR: nothing there to serve
  }
}

describe('the path oracle', () => {
  it('tells inside from outside for the classic cases', () => {
    expect(posixLanding('/srv/root', 'a/b.md')).toEqual({ kind: 'inside', segments: ['a', 'b.md'] });
    expect(posixLanding('/srv/root', 'a/../../x')).toEqual({ kind: 'outside' });
    expect(posixLanding('/srv/root', '/srv/rootx/a')).toEqual({ kind: 'outside' });
    expect(posixLanding('/srv/root', '/srv/root/./a')).toEqual({ kind: 'inside', segments: ['a'] });
    expect(posixLanding('/srv/root', 'a/..')).toEqual({ kind: 'root' });
    expect(posixLanding('/srv/root', 'a\0')).toEqual({ kind: 'invalid' });
    expect(posixLanding('/srv/root', '..\\x')).toEqual({ kind: 'inside', segments: ['..\\x'] });
    expect(escapesOnWindows('..\\x')).toBe(true);
    expect(escapesOnWindows('C:\\x')).toBe(true);
    expect(escapesOnWindows('\\\\server\\share')).toBe(true);
    expect(escapesOnWindows('notes\\a.md')).toBe(false);
  });
});

describe('path containment against the oracle', () => {
  it(
    'the web shell serves files from the built renderer only',
    async () => {
      const root = join(sandbox, 'static');
      mkdirSync(join(root, 'assets'), { recursive: true });
      writeFileSync(join(root, 'index.html'), 'INDEX');
      writeFileSync(join(root, 'assets', 'app.js'), 'APP');
      // Secrets next to, above, and in a folder whose name merely starts with the root's name.
      mkdirSync(join(sandbox, 'static-evil'), { recursive: true });
      writeFileSync(join(sandbox, 'secret.txt'), 'SECRET');
      writeFileSync(join(sandbox, 'static-evil', 'secret.txt'), 'SECRET');
      const insideContents = new Set(['INDEX', 'APP']);
      let tried = 0;
      let escaped = 0;
      // The server hands over a URL's pathname, which always starts with a slash.
      const urlPath = fc
        .oneof(
          hostilePath(['static', 'static-evil', 'secret.txt', 'assets', 'app.js', 'index.html']),
          hostilePath(['static', 'static-evil', 'secret.txt']).map((path) => encodeURIComponent(path)),
        )
        .map((path) => `/${path}`);
      await fc.assert(
        fc.asyncProperty(urlPath, async (path) => {
          tried++;
          const served = await readStaticFile(root, path);
          let decoded: string | null;
          try {
            decoded = decodeURIComponent(path);
          } catch {
            decoded = null;
          }
          if (served !== null && !insideContents.has(served.body.toString())) escaped++;
          expect(served === null || insideContents.has(served.body.toString()), `${JSON.stringify(path)} served a file from outside`).toBe(
            true,
          );
          // A URL path is absolute: `..` stops at its root. Where it names a file of the renderer, that file is what comes back.
          const landing = decoded === null ? null : posixLanding('/', `/${decoded}`);
          // A trailing slash names a folder: `index.html/` is not the file (ENOTDIR), whatever the segments say.
          if (landing?.kind !== 'inside' || decoded!.endsWith('/')) return;
          const named = join(root, ...landing.segments);
          if (isFile(named)) {
            expect(served?.body.toString(), JSON.stringify(path)).toBe(readFileSync(named, 'utf8'));
          }
        }),
        { numRuns: Math.ceil(CASES / 2) },
      );
      recordFigure('badInputs', { tried }, 'paths');
      recordFigure('outOfRootWrites', { writes: escaped, attempts: tried });
      // Liveness: the same function does serve what is really there.
      expect((await readStaticFile(root, '/assets/app.js'))?.body.toString()).toBe('APP');
    },
    timeoutAtScale(30_000, 900_000),
  );

  it(
    'a project reference names exactly one folder under projects/',
    () => {
      const configRoot = join(sandbox, 'claude');
      let tried = 0;
      fc.assert(
        fc.property(hostilePath(), (slug) => {
          tried++;
          const parsed = projectRefSchema.safeParse({ configRoot, slug });
          if (!parsed.success) return;
          const landing = posixLanding(join(configRoot, 'projects'), parsed.data.slug);
          expect(landing.kind === 'inside' && landing.segments.length === 1, JSON.stringify(slug)).toBe(true);
          const onWindows = windowsSegments(parsed.data.slug);
          expect(onWindows.length === 1 && onWindows[0] !== '..', JSON.stringify(slug)).toBe(true);
        }),
        { numRuns: Math.ceil(CASES / 4) },
      );
      recordFigure('badInputs', { tried }, 'paths');
    },
    timeoutAtScale(20_000, 600_000),
  );

  it(
    'an autoMemoryDirectory setting is absolute, normalised, and stays in home when written with ~/',
    () => {
      const home = join(sandbox, 'home', 'me');
      let tried = 0;
      fc.assert(
        fc.property(hostilePath(), fc.constantFrom('', '~/', '~\\', '/'), (path, lead) => {
          tried++;
          const raw = lead + path;
          const result = validateMemoryDirectory(raw, home);
          if (result === null) return;
          expect(result.startsWith('/'), raw).toBe(true);
          expect(result.includes('\0'), raw).toBe(false);
          expect(result.split('/'), raw).not.toContain('..');
          expect(result.split('/'), raw).not.toContain('.');
          expect(result).not.toBe('/');
          if (lead === '~/' || lead === '~\\') {
            const landing = posixLanding(home, result);
            expect(landing.kind, raw).toBe('inside');
          }
        }),
        { numRuns: Math.ceil(CASES / 4) },
      );
      recordFigure('badInputs', { tried }, 'paths');
    },
    timeoutAtScale(20_000, 600_000),
  );
});
