/**
 * Script and request injection payloads, each tagged with its own number so a test can tell which one fired.
 * A payload that runs calls `__xss(n)` (or `alert(n)`); one that makes the page fetch asks for a resource on
 * another origin (`http://127.0.0.2:9/…`). Every vector is placed in several contexts (plain text, after an
 * attribute quote, inside markdown syntax), which is how a list of ~40 vectors becomes hundreds of payloads.
 */
const OUTSIDE = 'http://127.0.0.2:9';

type Vector = (n: number) => string;

const vectors: readonly Vector[] = [
  (n) => `<script>__xss(${n})</script>`,
  (n) => `<img src=x onerror=__xss(${n})>`,
  (n) => `<svg onload=__xss(${n})>`,
  (n) => `<svg><script>__xss(${n})</script></svg>`,
  (n) => `<iframe src="javascript:__xss(${n})"></iframe>`,
  (n) => `<iframe srcdoc="<script>parent.__xss(${n})</script>"></iframe>`,
  (n) => `<a href="javascript:__xss(${n})">click me ${n}</a>`,
  (n) => `"><img src=x onerror=__xss(${n})>`,
  (n) => `'><svg onload=__xss(${n})>`,
  (n) => `<details open ontoggle=__xss(${n})>x</details>`,
  (n) => `<body onload=__xss(${n})>`,
  (n) => `<input autofocus onfocus=__xss(${n})>`,
  (n) => `<video><source onerror=__xss(${n})></video>`,
  (n) => `<object data="javascript:__xss(${n})"></object>`,
  (n) => `<embed src="javascript:__xss(${n})">`,
  (n) => `<math><mtext><table><mglyph><style><img src=x onerror=__xss(${n})>`,
  (n) => `<noscript><p title="</noscript><img src=x onerror=__xss(${n})>">`,
  (n) => `<style>@import '${OUTSIDE}/style-${n}.css';</style>`,
  (n) => `<link rel=stylesheet href=${OUTSIDE}/link-${n}.css>`,
  (n) => `<img src=${OUTSIDE}/img-${n}.png>`,
  (n) => `![tracking pixel ${n}](${OUTSIDE}/md-img-${n}.png)`,
  (n) => `[click me ${n}](javascript:__xss(${n}))`,
  (n) => `<javascript:__xss(${n})>`,
  (n) => `[data link ${n}](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
  (n) => `<meta http-equiv="refresh" content="0;url=javascript:__xss(${n})">`,
  (n) => `<base href="${OUTSIDE}/base-${n}/">`,
  (n) => `<form action="javascript:__xss(${n})"><button>send ${n}</button></form>`,
  (n) => `{{constructor.constructor('__xss(${n})')()}}`,
  (n) => `\${__xss(${n})}`,
  (n) => `javascript:__xss(${n})`,
  (n) => `<div style="background:url(${OUTSIDE}/bg-${n}.png)">styled ${n}</div>`,
  (n) => `<img srcset="${OUTSIDE}/srcset-${n}.png 1x">`,
  (n) => `<a href="${OUTSIDE}/" ping="${OUTSIDE}/ping-${n}">ping ${n}</a>`,
  (n) => `<script src=${OUTSIDE}/script-${n}.js></script>`,
  (n) => `<scr<script>ipt>__xss(${n})</scr</script>ipt>`,
  (n) => `<img src="x" onerror="&#95;&#95;xss(${n})">`,
  (n) => `<svg><animate onbegin=__xss(${n}) attributeName=x dur=1s>`,
  (n) => `<div>\n<img src=x onerror=__xss(${n})>\n</div>`,
  (n) => `[ref ${n}]\n\n[ref ${n}]: javascript:__xss(${n})`,
  (n) => `<x onclick=__xss(${n})>click ${n}</x>`,
  (n) => `\`\`\`\n</code><img src=x onerror=__xss(${n})>\n\`\`\``,
  (n) => `<iframe src="${OUTSIDE}/frame-${n}.html"></iframe>`,
];

export interface XssPayload {
  readonly id: number;
  readonly text: string;
}

/** `count` payloads, numbered from `first`, cycling through the vectors. */
export function xssPayloads(count: number, first = 1): XssPayload[] {
  return Array.from({ length: count }, (_, index) => {
    const id = first + index;
    return { id, text: vectors[index % vectors.length](id) };
  });
}

export const XSS_VECTOR_COUNT = vectors.length;
export const OUTSIDE_ORIGIN = OUTSIDE;
