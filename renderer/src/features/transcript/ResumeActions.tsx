import { useState } from 'react';
import type { TranscriptOutline } from '../../../../shared/transcript/transcriptOutline';
import { api } from '../../api/connectApi';
import { useHomeStore } from '../../stores/homeStore';
import { copyText } from '../../components/copyText';
import { TerminalSettingForm } from './TerminalSettingForm';

type Status = { readonly kind: 'info' | 'error'; readonly text: string } | null;

/** Resume or fork the session in a terminal (desktop only), or copy the command (everywhere). */
export function ResumeActions({ outline }: { readonly outline: TranscriptOutline }) {
  const shell = useHomeStore((s) => s.home?.shell);
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const canLaunch = shell === 'electron';
  // An archived session, or one whose own transcript is gone, cannot be resumed: Claude Code has no transcript to resume.
  const unavailable = outline.resumeUnavailable;
  const session = { configRoot: outline.configRoot, slug: outline.slug, sessionId: outline.sessionId };

  const copy = async (text: string) => {
    const copied = await copyText(text);
    setStatus(
      copied ? { kind: 'info', text: 'Copied to the clipboard.' } : { kind: 'error', text: 'Could not copy; select the command below.' },
    );
  };

  const launch = async (fork: boolean) => {
    setBusy(true);
    const result = await api.resumeSession({ ...session, fork });
    setBusy(false);
    if (result.ok) setStatus({ kind: 'info', text: `Opened ${result.value.terminal} in ${result.value.cwd}.` });
    else setStatus({ kind: 'error', text: result.error.message });
  };

  return (
    <section className="tx-resume" aria-label="Resume">
      {unavailable !== null ? (
        <p className="warning small" role="note" aria-label="Resume unavailable">
          Resume is not available: {unavailable}
        </p>
      ) : outline.cwd === null ? (
        <p className="warning small">The session does not record its folder; run the command in the project folder yourself.</p>
      ) : !outline.cwdExists ? (
        <p className="warning small">
          The session&apos;s folder <code>{outline.cwd}</code> no longer exists on this machine; copy the command and run it where the
          project is.
        </p>
      ) : null}
      <div className="actions">
        {canLaunch ? (
          <>
            <button
              type="button"
              disabled={busy || !outline.cwdExists || unavailable !== null}
              title={unavailable ?? undefined}
              onClick={() => void launch(false)}
            >
              Resume in terminal
            </button>
            <button
              type="button"
              disabled={busy || !outline.cwdExists || unavailable !== null}
              title={unavailable ?? undefined}
              onClick={() => void launch(true)}
            >
              Fork
            </button>
          </>
        ) : null}
        <button
          type="button"
          disabled={unavailable !== null}
          title={unavailable ?? undefined}
          onClick={() => void copy(outline.resume.copyResume)}
        >
          Copy command
        </button>
        <button
          type="button"
          disabled={unavailable !== null}
          title={unavailable ?? undefined}
          onClick={() => void copy(outline.resume.copyFork)}
        >
          Copy fork command
        </button>
      </div>
      <input
        className="tx-command-field"
        readOnly
        disabled={unavailable !== null}
        aria-label="Resume command"
        value={outline.resume.copyResume}
        onFocus={(event) => event.currentTarget.select()}
      />
      {!canLaunch ? <p className="muted small">A browser cannot open a terminal: copy the command and run it in yours.</p> : null}
      {status ? (
        <p className={status.kind === 'error' ? 'error small' : 'muted small'} role="status">
          {status.text}
        </p>
      ) : null}
      {canLaunch ? <TerminalSettingForm /> : null}
    </section>
  );
}
