import { FINDING_CODES, FINDING_INFO } from '../../../../shared/memory/findingCodes';
import {
  AGE_FILTERS,
  SORT_ORDERS,
  TYPE_FILTERS,
  type AgeFilter,
  type FindingFilter,
  type MemoryFilters,
  type ScopeFilter,
  type SortOrder,
  type TypeFilter,
} from './memoryFilters';
import { setFilters } from './memoryReviewStore';

/** Sort and filter controls for the topic file list. */
export function MemoryFilterBar({ filters, showScope }: { readonly filters: MemoryFilters; readonly showScope: boolean }) {
  return (
    <div className="filter-bar" role="search" aria-label="Filter memories">
      <input
        type="search"
        placeholder="Search name, description, path"
        value={filters.text}
        onChange={(e) => setFilters({ text: e.target.value })}
        aria-label="Search"
      />
      <label>
        Type
        <select aria-label="Type filter" value={filters.type} onChange={(e) => setFilters({ type: e.target.value as TypeFilter })}>
          {TYPE_FILTERS.map((t) => (
            <option key={t} value={t}>
              {t === 'all' ? 'all types' : t}
            </option>
          ))}
        </select>
      </label>
      <label>
        Age
        <select aria-label="Age filter" value={filters.age} onChange={(e) => setFilters({ age: e.target.value as AgeFilter })}>
          {Object.entries(AGE_FILTERS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label>
        Finding
        <select
          aria-label="Finding filter"
          value={filters.finding}
          onChange={(e) => setFilters({ finding: e.target.value as FindingFilter })}
        >
          <option value="all">any or none</option>
          <option value="any">with findings</option>
          <option value="none">without findings</option>
          {FINDING_CODES.map((code) => (
            <option key={code} value={code}>
              {FINDING_INFO[code].label} ({code})
            </option>
          ))}
        </select>
      </label>
      {showScope ? (
        <label>
          Scope
          <select aria-label="Scope filter" value={filters.scope} onChange={(e) => setFilters({ scope: e.target.value as ScopeFilter })}>
            <option value="all">private and team</option>
            <option value="private">private</option>
            <option value="team">team</option>
          </select>
        </label>
      ) : null}
      <label>
        Sort
        <select aria-label="Sort order" value={filters.sort} onChange={(e) => setFilters({ sort: e.target.value as SortOrder })}>
          {Object.entries(SORT_ORDERS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
