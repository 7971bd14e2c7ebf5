import type { RequestHandlers } from '../../../shared/contract/api';
import type { SearchService } from '../search/SearchService';
import type { CatalogService } from './CatalogService';

export type CatalogRequestName = 'getSessionCatalog' | 'refreshSessionCatalog' | 'cancelCatalogBuild' | 'startSearch' | 'cancelSearch';

/** The session catalog's and search's side of the contract. */
export function catalogRequestHandlers(catalog: CatalogService, search: SearchService): Pick<RequestHandlers, CatalogRequestName> {
  return {
    getSessionCatalog: (request) => catalog.listing(request),
    refreshSessionCatalog: () => catalog.refresh(),
    cancelCatalogBuild: () => {
      catalog.cancel();
      return Promise.resolve(null);
    },
    startSearch: ({ query, limit, scope, includeRequestRecords }) =>
      Promise.resolve(search.start(query, limit, scope, includeRequestRecords)),
    cancelSearch: ({ searchId }) => {
      search.cancel(searchId);
      return Promise.resolve(null);
    },
  };
}
