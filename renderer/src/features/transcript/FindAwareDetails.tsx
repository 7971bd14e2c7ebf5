import type { ReactNode } from 'react';
import { containsText } from '../../components/textMatches';
import { useTranscriptStore } from './transcriptStore';

export interface FindAwareDetailsProps {
  readonly summary: ReactNode;
  /** The text inside, searched for the find query. */
  readonly text: string;
  readonly className?: string;
  readonly children: ReactNode;
}

/** A collapsed part of a message (thinking, a tool's input) that opens while find matches the text inside it. */
export function FindAwareDetails({ summary, text, className, children }: FindAwareDetailsProps) {
  const matches = useTranscriptStore((s) => s.find !== null && s.find.hits.length > 0 && containsText(text, s.find.query));
  return (
    <details className={className} open={matches || undefined}>
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
