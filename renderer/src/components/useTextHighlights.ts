import { useEffect, type RefObject } from 'react';
import { textMatches } from './textMatches';

/**
 * Marks every occurrence of `query` in the text under `container` with the CSS highlight `name` (styled with
 * `::highlight(name)`), without touching the DOM; follows the container's content as it changes (virtualised rows
 * come and go while scrolling).
 */
export function useTextHighlights(container: RefObject<HTMLElement | null>, name: string, query: string | null): void {
  useEffect(() => {
    const registry = typeof CSS !== 'undefined' ? CSS.highlights : undefined;
    const root = container.current;
    if (!registry || !root || !query) return;
    const highlight = new Highlight();
    registry.set(name, highlight);
    let frame = 0;
    const update = () => {
      frame = 0;
      highlight.clear();
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const [start, end] of textMatches(node.textContent ?? '', query)) {
          const range = new Range();
          range.setStart(node, start);
          range.setEnd(node, end);
          highlight.add(range);
        }
      }
    };
    const observer = new MutationObserver(() => {
      frame ||= requestAnimationFrame(update);
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    update();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      registry.delete(name);
    };
  }, [container, name, query]);
}
