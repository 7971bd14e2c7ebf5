import { describe, expect, it } from 'vitest';
import type { SessionCatalogEntry } from '../../../../shared/model/catalog';
import { ListingSnapshots } from '../../../../electron/core/catalog/listingSnapshots';

/** The snapshots keep whatever array they are given; what is in it does not matter here. */
const listing = (name: string) => [{ sessionId: name }] as unknown as readonly SessionCatalogEntry[];

describe('ListingSnapshots', () => {
  it('gives back each kept listing by its id, as it was kept', () => {
    const snapshots = new ListingSnapshots();
    const a = listing('a');
    const b = listing('b');
    const idA = snapshots.keep(a);
    const idB = snapshots.keep(b);
    expect(idA).not.toBe(idB);
    expect(snapshots.get(idA)).toBe(a);
    expect(snapshots.get(idB)).toBe(b);
    expect(snapshots.get('listing-unknown')).toBeNull();
  });

  it('lets the listing kept longest ago go once four are kept', () => {
    const snapshots = new ListingSnapshots();
    const ids = ['a', 'b', 'c', 'd', 'e'].map((name) => snapshots.keep(listing(name)));
    expect(snapshots.get(ids[0])).toBeNull();
    for (const id of ids.slice(1)) expect(snapshots.get(id)).not.toBeNull();
  });

  it('lets a listing go five minutes after it was kept', () => {
    let now = 0;
    const snapshots = new ListingSnapshots(() => now);
    const id = snapshots.keep(listing('a'));
    now = 5 * 60_000;
    expect(snapshots.get(id)).not.toBeNull();
    now += 1;
    expect(snapshots.get(id)).toBeNull();
  });
});
