import { create } from 'zustand';

/** The one modal layer open over the page, if any. */
export type Overlay = 'palette' | 'shortcuts' | null;

export const useOverlayStore = create<{ readonly overlay: Overlay }>()(() => ({ overlay: null }));

export function openOverlay(overlay: Exclude<Overlay, null>): void {
  useOverlayStore.setState({ overlay });
}

export function closeOverlay(): void {
  useOverlayStore.setState({ overlay: null });
}
