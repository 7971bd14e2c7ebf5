/** `key: value` on one line: a key of letters, digits, `_` and `-`, one or more spaces, then a value. */
const PAIR = /^([A-Za-z][A-Za-z0-9_-]*): +(.*?) *$/;
/**
 * A value YAML reads as this very string: it starts with a letter or a digit (no indicator such as `"`, `&`, `*`,
 * `!`, `|`, `>`, `[`), holds no `:` or `#` (no nested pair, no comment), and only printable characters.
 */
const PLAIN_TEXT = /^[A-Za-z0-9][\x20-\x22\x24-\x39\x3b-\x7e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;
/** Plain values YAML 1.2's core schema turns into null, a boolean or a number instead. */
const NOT_A_STRING =
  /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)$/;

/**
 * The frontmatter most memories have (`name:`, `description:`, `type:`, each a plain one-line string) read without
 * the YAML parser, which costs more than everything else a review does with a file. Null for anything else
 * (nesting, quotes, lists, comments, numbers, repeated keys, a line it does not recognise): that goes to the parser,
 * so both always agree (the unit test checks this against the parser).
 */
export function simpleFrontmatter(inner: string): Record<string, string> | null {
  const data: Record<string, string> = {};
  let pairs = 0;
  for (const raw of inner.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') continue;
    const pair = PAIR.exec(line);
    if (!pair) return null;
    const [, key, value] = pair;
    if (NOT_A_STRING.test(key) || Object.hasOwn(data, key) || !PLAIN_TEXT.test(value) || NOT_A_STRING.test(value)) return null;
    data[key] = value;
    pairs++;
  }
  return pairs > 0 ? data : null;
}
