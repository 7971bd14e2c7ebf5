import { describe, expect, it } from 'vitest';
import { renderMemoryMarkdown } from '../../../renderer/src/components/memoryMarkdown';

describe('renderMemoryMarkdown', () => {
  it('renders markdown', () => {
    expect(renderMemoryMarkdown('**Why:** because')).toBe('<p><strong>Why:</strong> because</p>\n');
  });

  it('shows raw HTML as text, never as markup', () => {
    const html = renderMemoryMarkdown('<img src="https://evil.example/x.png" onerror="alert(1)">\n\n<script>alert(1)</script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
  });

  it('replaces every image with a placeholder, so nothing is fetched', () => {
    const html = renderMemoryMarkdown('![dashboard](https://grafana.example/d.png) and ![local](./shot.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('[image not loaded: dashboard]');
    expect(html).toContain('[image not loaded: local]');
  });

  it('drops script links and opens web links outside', () => {
    expect(renderMemoryMarkdown('[x](javascript:alert(1))')).not.toContain('href="javascript');
    expect(renderMemoryMarkdown('[docs](https://example.com)')).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">',
    );
    expect(renderMemoryMarkdown('[other](feedback_x.md)')).toBe('<p><a href="feedback_x.md">other</a></p>\n');
  });
});

describe('code blocks', () => {
  it('come with a copy button beside the code, the code itself unchanged', () => {
    const html = renderMemoryMarkdown('```sh\nnpm test -- <cart>\n```\n\n    indented code\n');
    expect(html).toBe(
      '<div class="code-block"><pre><code class="language-sh">npm test -- &lt;cart&gt;\n</code></pre>\n' +
        '<button type="button" class="copy-button" data-copy-code aria-label="Copy the code">Copy</button></div>' +
        '<div class="code-block"><pre><code>indented code\n</code></pre>\n' +
        '<button type="button" class="copy-button" data-copy-code aria-label="Copy the code">Copy</button></div>',
    );
  });
});
