import type { RequestHandlers } from '../../../shared/contract/api';
import type { SearchService } from '../search/SearchService';
import type { CatalogService } from './CatalogService';

export type CatalogRequestName = 'getSessionCatalog' | 'refreshSessionCatalog' | 'cancelCatalogBuild' | 'startSearch' | 'cancelSearch';

/** The session catalog's and search's side of the contract. */
export function catalogRequestHandlers(catalog: CatalogService, search: SearchService): Pick<RequestHandlers, CatalogRequestName> {
  return {
    getSessionCatalog: (filter) => catalog.listing(filter),
    refreshSessionCatalog: () => catalog.refresh(),
    cancelCatalogBuild: () => {
      catalog.cancel();
      return Promise.resolve(null);
    },
    startSearch: ({ query, limit, scope }) => Promise.resolve(search.start(query, limit, scope)),
    cancelSearch: ({ searchId }) => {
      search.cancel(searchId);
      return Promise.resolve(null);
    },
  };
}
