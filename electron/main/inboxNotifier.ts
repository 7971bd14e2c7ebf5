import { Notification } from 'electron';
import type { InboxEntry, ReviewInboxChange } from '../../shared/jobs/backgroundJobs';
import { countOf } from '../../shared/text/plural';

/** The part of the review inbox the notifier listens to. */
export interface InboxEvents {
  onDidChange(listener: (change: ReviewInboxChange) => void): () => void;
}

function bodyOf(entry: InboxEntry): string {
  const files = `${countOf(entry.files.length, 'file')} to review`;
  const summary = entry.summary?.split('\n')[0].slice(0, 160);
  return summary ? `${entry.label}: ${files}. ${summary}` : `${entry.label}: ${files}.`;
}

/**
 * Shows a system notification when proposals the user did not start by hand arrive in the review inbox (a
 * reviewed dream, an automatic extraction): those ran in the background, unseen. Clicking it shows the window.
 * Returns the unsubscribe.
 */
export function notifyInboxArrivals(inbox: InboxEvents, showWindow: () => void): () => void {
  return inbox.onDidChange(({ arrived }) => {
    if (!arrived || arrived.trigger === 'user' || !Notification.isSupported()) return;
    const notification = new Notification({
      title: arrived.kind === 'dream' ? 'A dream is ready for review' : 'An extraction replay is ready for review',
      body: bodyOf(arrived),
    });
    notification.on('click', showWindow);
    notification.show();
  });
}
