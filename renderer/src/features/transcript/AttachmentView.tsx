import type { EntryBody } from '../../../../shared/transcript/transcriptEntry';
import { containsText } from '../../components/textMatches';
import { CollapsibleText } from './CollapsibleText';
import { useTranscriptStore } from './transcriptStore';

/** Attachments Claude Code writes for its own bookkeeping: the tool list, skill listings, reminders, mode switches. */
const BOOKKEEPING_TYPES: ReadonlySet<string> = new Set([
  'deferred_tools_delta',
  'skill_listing',
  'task_reminder',
  'todo_reminder',
  'command_permissions',
  'plan_mode',
  'plan_mode_exit',
  'auto_mode',
  'auto_mode_exit',
  'hook_success',
  'hook_additional_context',
  'dynamic_skill',
  'critical_system_reminder',
]);

/** The attachment's text is a JSON dump of its fields (it had no readable field to show). */
function isRawJson(text: string): boolean {
  return /^\s*[{[]/.test(text);
}

/**
 * An attachment line. Readable ones (a file, a queued prompt, recalled memories) show their text; bookkeeping ones
 * and bare JSON show only what they are, unless bookkeeping lines are asked for or find matched their text.
 */
export function AttachmentView({ body }: { readonly body: Extract<EntryBody, { kind: 'attachment' }> }) {
  const showBookkeeping = useTranscriptStore((s) => s.view.showMetadata);
  const findQuery = useTranscriptStore((s) => (s.find && s.find.hits.length > 0 ? s.find.query : null));
  const type = body.attachmentType ?? 'unknown';
  const quiet = !showBookkeeping && (BOOKKEEPING_TYPES.has(type) || isRawJson(body.text)) && !containsText(body.text, findQuery);
  return (
    <div className="tx-system" aria-label="Attachment">
      <span className="tx-role">attachment · {type.replace(/_/g, ' ')}</span>{' '}
      {quiet ? null : <CollapsibleText text={body.text} maxLines={3} maxChars={400} className="tx-inline-text" />}
    </div>
  );
}
