import { useEffect } from 'react';
import { toggleSidebar } from '../stores/uiPreferencesStore';
import { closeOverlay, openOverlay, useOverlayStore } from './overlayStore';

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** The app-wide keys: Ctrl/Cmd+K the palette, `?` the shortcut list, Ctrl/Cmd+B the sidebar; Ctrl/Cmd+S never saves the page. */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && !event.altKey && key === 'k') {
        event.preventDefault();
        if (useOverlayStore.getState().overlay === 'palette') closeOverlay();
        else openOverlay('palette');
      } else if (mod && !event.altKey && key === 'b') {
        event.preventDefault();
        toggleSidebar();
      } else if (mod && !event.altKey && key === 's') {
        // Editors save themselves (their form handles the key first); elsewhere the browser's "save page" stays shut.
        event.preventDefault();
      } else if (event.key === '?' && !mod && !event.altKey && !isTyping(event.target) && useOverlayStore.getState().overlay === null) {
        event.preventDefault();
        openOverlay('shortcuts');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
