import MarkdownIt from 'markdown-it';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** Raw HTML is shown as text, never rendered; images become placeholders so nothing is fetched from anywhere. */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
markdown.renderer.rules.image = (tokens, index) => {
  const token = tokens[index];
  const src = String(token.attrGet('src') ?? '');
  const alt = String(token.children?.map((child) => child.content).join('') || token.content);
  return `<span class="image-placeholder" title="${escapeHtml(src)}">[image not loaded: ${escapeHtml(alt || src)}]</span>`;
};
const defaultLinkOpen =
  markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const href = String(tokens[index].attrGet('href') ?? '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    tokens[index].attrSet('target', '_blank');
    tokens[index].attrSet('rel', 'noopener noreferrer');
  }
  return defaultLinkOpen(tokens, index, options, env, self);
};

/** Code blocks get a copy button (MarkdownView handles its click). */
for (const rule of ['fence', 'code_block'] as const) {
  const render = markdown.renderer.rules[rule];
  markdown.renderer.rules[rule] = (tokens, index, options, env, self) =>
    `<div class="code-block">${render ? render(tokens, index, options, env, self) : self.renderToken(tokens, index, options)}` +
    '<button type="button" class="copy-button" data-copy-code aria-label="Copy the code">Copy</button></div>';
}

/** A memory's markdown as HTML that is safe to insert: only markup markdown-it generated itself, no fetches. */
export function renderMemoryMarkdown(text: string): string {
  return markdown.render(text);
}
