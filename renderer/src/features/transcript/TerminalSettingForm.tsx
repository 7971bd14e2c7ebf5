import { useEffect, useState } from 'react';
import type { TerminalSetting } from '../../../../shared/transcript/transcriptOutline';
import { api } from '../../api/connectApi';
import { useConnectionStore } from '../../api/connectionStore';
import { useMutation } from '../../components/useMutation';

/** The command that opens a terminal, with its placeholders; empty goes back to this platform's default. */
export function TerminalSettingForm() {
  const [setting, setSetting] = useState<TerminalSetting | null>(null);
  const [draft, setDraft] = useState('');
  const saving = useMutation();

  const reconnections = useConnectionStore((s) => s.reconnections);
  useEffect(() => {
    // Read again when the connection comes back after a failed first read; a loaded form keeps what is typed in it.
    if (setting !== null) return;
    void api.getTerminalSetting({}).then((result) => {
      if (!result.ok) return;
      setSetting(result.value);
      setDraft(result.value.command);
    });
  }, [reconnections]);

  const save = async (command: string) => {
    const result = await saving.run(() => api.setTerminalSetting({ command }), { done: () => 'Saved.' });
    if (!result.ok) return;
    setSetting(result.value);
    setDraft(result.value.command);
  };

  if (!setting) return null;
  return (
    <details className="tx-terminal-setting">
      <summary>Terminal command{setting.isDefault ? ' (default)' : ''}</summary>
      <p className="muted small">
        Placeholders: <code>{'{cwd}'}</code> the session&apos;s folder, <code>{'{command}'}</code> the claude command,{' '}
        <code>{'{script}'}</code> both as a shell line, <code>{'{scriptForAppleScript}'}</code> the same for AppleScript. The terminal
        starts in the session&apos;s folder. A command run through cmd.exe gets every word quoted for it; a folder whose name holds % cannot
        be given to cmd.exe safely, so use a command without <code>{'{cwd}'}</code> there.
      </p>
      <input className="tx-command-field" aria-label="Terminal command" value={draft} onChange={(event) => setDraft(event.target.value)} />
      <div className="actions">
        <button type="button" onClick={() => void save(draft)}>
          Save
        </button>
        <button type="button" onClick={() => void save('')} disabled={setting.isDefault}>
          Use the default
        </button>
      </div>
      {saving.error || saving.notice ? <p className="muted small">{saving.error ?? saving.notice}</p> : null}
    </details>
  );
}
