import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** WCAG 2.x relative luminance of a `#rgb` or `#rrggbb` colour. */
function luminance(hex: string): number {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((c) => c + c).join('') : digits;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = parseInt(full.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The custom properties of one rule of theme.css, by the rule's selector. */
function paletteOf(css: string, selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no rule ${selector} in theme.css`);
  const body = css.slice(start, css.indexOf('}', start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;/g)].map((m) => [m[1], m[2]]));
}

const NORMAL_TEXT = 4.5;
/** Borders of controls and the focus ring (WCAG 1.4.11: non-text contrast). */
const NON_TEXT = 3;

/** Every foreground the UI puts on a background, with the ratio AA asks of it. */
const PAIRS: readonly (readonly [foreground: string, background: string, minimum: number])[] = [
  ...['--bg', '--panel', '--panel-sunken', '--accent-soft', '--line', '--neutral-soft'].flatMap((bg) => [
    ['--text', bg, NORMAL_TEXT] as const,
    ['--muted', bg, NORMAL_TEXT] as const,
  ]),
  ...['--warn-soft', '--danger-soft', '--success-soft', '--info-soft', '--violet-soft', '--added-bg', '--removed-bg'].map(
    (bg) => ['--text', bg, NORMAL_TEXT] as const,
  ),
  ...['--added-word', '--removed-word', '--mark', '--compact-bg'].map((bg) => ['--text', bg, NORMAL_TEXT] as const),
  ...['--bg', '--panel', '--accent-soft'].map((bg) => ['--accent-text', bg, NORMAL_TEXT] as const),
  ...['--bg', '--panel', '--panel-sunken'].map((bg) => ['--link', bg, NORMAL_TEXT] as const),
  ['--on-accent', '--accent', NORMAL_TEXT],
  ...['--bg', '--panel', '--warn-soft'].map((bg) => ['--warn', bg, NORMAL_TEXT] as const),
  ...['--bg', '--panel', '--danger-soft'].map((bg) => ['--danger', bg, NORMAL_TEXT] as const),
  ['--success', '--success-soft', NORMAL_TEXT],
  ['--info', '--info-soft', NORMAL_TEXT],
  ['--violet', '--violet-soft', NORMAL_TEXT],
  ['--inverse-text', '--inverse-bg', NORMAL_TEXT],
  ['--inverse-muted', '--inverse-bg', NORMAL_TEXT],
  ['--divider-text', '--panel-sunken', NORMAL_TEXT],
  ['--control-border', '--panel', NON_TEXT],
  ['--focus', '--bg', NON_TEXT],
  ['--focus', '--panel', NON_TEXT],
];

const css = readFileSync(resolve(import.meta.dirname, '../../../renderer/src/theme.css'), 'utf8');

describe('the contrast formula', () => {
  it('gives 21:1 for black on white and 1:1 for a colour on itself', () => {
    expect(contrastRatio('#000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#c2410c', '#c2410c')).toBe(1);
    expect(contrastRatio('#767676', '#fff')).toBeCloseTo(4.54, 2);
  });
});

describe.each([
  ['light', ':root'],
  ['dark', ":root[data-theme='dark']"],
])('the %s palette', (_name, selector) => {
  const palette = paletteOf(css, selector);

  it('defines every colour the other theme defines', () => {
    expect([...palette.keys()].sort()).toEqual([...paletteOf(css, ':root').keys()].sort());
  });

  it.each(PAIRS)('%s on %s reaches %s:1', (foreground, background, minimum) => {
    const fg = palette.get(foreground);
    const bg = palette.get(background);
    expect(fg, foreground).toBeDefined();
    expect(bg, background).toBeDefined();
    expect(contrastRatio(fg as string, bg as string)).toBeGreaterThanOrEqual(minimum);
  });
});
