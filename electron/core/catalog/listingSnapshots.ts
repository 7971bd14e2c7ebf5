import type { SessionCatalogEntry } from '../../../shared/model/catalog';

/** How many listings are kept for their later pages: one per window that is loading, with room to spare. */
const KEPT_LISTINGS = 4;
/** A listing whose pages are not all asked for by then is let go (a window that was closed half way). */
const KEPT_FOR_MS = 5 * 60_000;

interface KeptListing {
  readonly sessions: readonly SessionCatalogEntry[];
  readonly keptAt: number;
}

/**
 * Listings handed out a page at a time, kept as they were when the first page was taken: sessions that start, grow or
 * go away meanwhile would shift the order under a plain offset, and a page could then skip one or repeat it. What
 * changed after the first page reaches the window as `sessionUpdated` events, which it applies over the pages.
 */
export class ListingSnapshots {
  private readonly kept = new Map<string, KeptListing>();
  private nextId = 1;

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps a listing; its id asks for the later pages. */
  keep(sessions: readonly SessionCatalogEntry[]): string {
    this.forgetExpired();
    const id = `listing-${this.nextId++}`;
    this.kept.set(id, { sessions, keptAt: this.now() });
    // Oldest first in a Map: the listing kept longest ago goes when there are too many.
    while (this.kept.size > KEPT_LISTINGS) this.kept.delete(this.kept.keys().next().value as string);
    return id;
  }

  /** The listing kept under this id, or null once it was let go. */
  get(id: string): readonly SessionCatalogEntry[] | null {
    this.forgetExpired();
    return this.kept.get(id)?.sessions ?? null;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [id, listing] of this.kept) if (now - listing.keptAt > KEPT_FOR_MS) this.kept.delete(id);
  }
}
