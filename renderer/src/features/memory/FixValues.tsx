import type { MemoryFix } from '../../../../shared/memory/fixes/memoryFix';
import { MEMORY_TYPES, type MemoryType } from '../../../../shared/model/memory';

/** The values a single fix leaves to the person (a description, a type, which file to keep), with the planner's choice filled in. */
export function FixValues({ fix, onChange }: { readonly fix: MemoryFix; readonly onChange: (fix: MemoryFix) => void }) {
  const typeSelect = (value: MemoryType | undefined, set: (type: MemoryType) => void) => (
    <select aria-label="Type" value={value ?? ''} onChange={(event) => set(event.target.value as MemoryType)}>
      {MEMORY_TYPES.map((type) => (
        <option key={type} value={type}>
          {type}
        </option>
      ))}
    </select>
  );
  switch (fix.kind) {
    case 'fill-description':
      return (
        <label className="field">
          Description
          <input value={fix.value ?? ''} maxLength={500} onChange={(event) => onChange({ ...fix, value: event.target.value })} />
        </label>
      );
    case 'fill-type':
      return <label className="field">Type {typeSelect(fix.value, (value) => onChange({ ...fix, value }))}</label>;
    case 'add-frontmatter':
      return (
        <div className="fix-values">
          <label className="field">
            Name
            <input value={fix.name ?? ''} maxLength={500} onChange={(event) => onChange({ ...fix, name: event.target.value })} />
          </label>
          <label className="field">
            Description
            <input
              value={fix.description ?? ''}
              maxLength={500}
              onChange={(event) => onChange({ ...fix, description: event.target.value })}
            />
          </label>
          <label className="field">Type {typeSelect(fix.type, (type) => onChange({ ...fix, type }))}</label>
        </div>
      );
    case 'merge-duplicates':
      return (
        <div className="fix-values" role="radiogroup" aria-label="Which file to keep">
          {[fix.keep, fix.drop].map((path) => (
            <label key={path}>
              <input
                type="radio"
                name="keep"
                checked={fix.keep === path}
                onChange={() => onChange({ kind: 'merge-duplicates', keep: path, drop: path === fix.keep ? fix.drop : fix.keep })}
              />{' '}
              Keep <code>{path}</code>
            </label>
          ))}
        </div>
      );
    case 'absolute-date':
      return (
        <label className="field">
          Dates are counted from (the file’s date)
          <input type="date" value={fix.date ?? ''} onChange={(event) => onChange({ ...fix, date: event.target.value })} />
        </label>
      );
    default:
      return null;
  }
}
