import type { ConnectionTestResult } from '../../../../shared/jobs/llmSettings';
import { BACKEND_TEXT } from './llmTexts';

/** How a test of a backend went: who answered and how fast, or why it failed. */
export function ConnectionTestLine({ test }: { readonly test: ConnectionTestResult }) {
  return (
    <p className={test.ok ? 'muted' : 'error'} aria-label="Connection test">
      {test.ok
        ? `Connected through ${BACKEND_TEXT[test.via]}: ${test.model} answered in ${test.latencyMs} ms. ${test.via === 'claude-code' ? test.message : ''}`
        : `Failed through ${BACKEND_TEXT[test.via]}: ${test.message}`}
    </p>
  );
}
