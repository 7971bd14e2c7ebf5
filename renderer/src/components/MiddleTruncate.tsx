import { splitForMiddleTruncation } from './middleTruncation';

export interface MiddleTruncateProps {
  readonly text: string;
  readonly className?: string;
  /** Render as code (monospace), as paths usually are. */
  readonly code?: boolean;
}

/**
 * A long path that fits its box: the middle gives way to an ellipsis, the end stays; the whole path on hover. The two
 * parts are adjacent spans, so the element's text (read aloud, found, copied) is still the whole path.
 */
export function MiddleTruncate({ text, className, code = false }: MiddleTruncateProps) {
  const { head, tail } = splitForMiddleTruncation(text);
  const Tag = code ? 'code' : 'span';
  return (
    <Tag className={className ? `middle-truncate ${className}` : 'middle-truncate'} title={text}>
      {head ? <span className="middle-truncate-head">{head}</span> : null}
      <span className="middle-truncate-tail">{tail}</span>
    </Tag>
  );
}
