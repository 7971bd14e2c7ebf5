import fc from 'fast-check';

/**
 * Path pieces that have broken containment checks somewhere: dot segments (plain, URL-encoded, double-encoded,
 * look-alike Unicode), backslashes, NUL, Windows drive/UNC/device forms, reserved names, very long names.
 */
export const hostileSegments: readonly string[] = [
  '..',
  '.',
  '',
  '...',
  '....',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '..%2f',
  '..%5c',
  '%2f',
  '%5c',
  '..\\',
  '\\..',
  '..\\..',
  '.\\',
  '\uFF0E\uFF0E', // fullwidth full stops, NFKC-normalise to ".."
  '\u2025', // two dot leader
  '\u2024\u2024', // one dot leader ×2
  '\u3002\u3002', // ideographic full stops
  '.\u0338.', // dot, combining long solidus overlay, dot
  '\uFF0F', // fullwidth solidus
  '\u2215', // division slash
  '\u2044', // fraction slash
  '\uFF3C', // fullwidth reverse solidus
  '\u202Egnp.md', // right-to-left override
  '\u200B..', // zero-width space before dots
  'e\u0301', // NFD é
  'a\0b',
  '\0',
  '..\0',
  'C:',
  'C:\\',
  'c:/',
  'C:..',
  '\\\\server\\share',
  '\\\\?\\C:\\',
  '\\\\.\\pipe\\x',
  '\\\\?\\UNC\\server\\share',
  'CON',
  'NUL.md',
  'aux.md',
  'file.md:stream',
  'file.md::$DATA',
  'name.md.',
  'name.md ',
  '~',
  '~root',
  '$HOME',
  'a'.repeat(255),
  'a'.repeat(256),
  'a'.repeat(4_200),
  'notes',
  'topic.md',
  'sub',
];

const separators = ['/', '\\', '//', '/./', '\u2215', '/../'];
const prefixes = ['', '', '', '/', '~/', 'C:\\', 'c:/', '\\\\server\\share\\', '\\\\?\\', '//', 'file://', '/proc/self/root/'];

/** A relative-looking or absolute path assembled from hostile pieces, or an arbitrary string now and then. */
export function hostilePath(extraSegments: readonly string[] = []): fc.Arbitrary<string> {
  const segment = fc.oneof(
    { arbitrary: fc.constantFrom(...hostileSegments, ...extraSegments), weight: 6 },
    { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 1 },
  );
  const assembled = fc
    .tuple(fc.constantFrom(...prefixes), fc.array(fc.tuple(segment, fc.constantFrom(...separators)), { minLength: 1, maxLength: 8 }))
    .map(([prefix, parts]) => prefix + parts.map(([name, separator], index) => (index === 0 ? name : separator + name)).join(''));
  return fc.oneof({ arbitrary: assembled, weight: 9 }, { arbitrary: fc.string({ maxLength: 40 }), weight: 1 });
}
