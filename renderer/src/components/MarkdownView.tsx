import { useMemo, type MouseEvent } from 'react';
import { copyText } from './copyText';
import { renderMemoryMarkdown } from './memoryMarkdown';

export interface MarkdownViewProps {
  readonly text: string;
  /** Called for a relative link to a `.md` file (another memory); other links open outside the app. */
  readonly onLocalLink?: (target: string) => void;
  readonly label?: string;
}

const COPY_CONFIRM_MS = 1500;

/** Markdown of a memory, rendered safely (see renderMemoryMarkdown). */
export function MarkdownView({ text, onLocalLink, label }: MarkdownViewProps) {
  const html = useMemo(() => renderMemoryMarkdown(text), [text]);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const copyButton = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-copy-code]');
    if (copyButton) {
      const code = copyButton.parentElement?.querySelector('pre')?.textContent ?? '';
      void copyText(code).then((ok) => {
        copyButton.textContent = ok ? 'Copied' : 'Cannot copy';
        setTimeout(() => (copyButton.textContent = 'Copy'), COPY_CONFIRM_MS);
      });
      return;
    }
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return;
    event.preventDefault();
    const path = href.split('#')[0];
    if (onLocalLink && path.toLowerCase().endsWith('.md')) onLocalLink(decodeURIComponent(path));
  };
  // renderMemoryMarkdown escapes all raw HTML (html: false), so this string only holds markup it generated itself.
  return <div className="markdown" aria-label={label} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
