import { Modal } from '../components/Modal';
import { closeOverlay } from './overlayStore';
import { SHORTCUTS } from './shortcuts';

/** `?`: every keyboard shortcut, in one table. */
export function ShortcutsDialog() {
  return (
    <Modal label="Keyboard shortcuts" onClose={closeOverlay}>
      <div className="modal-header">
        <h2>Keyboard shortcuts</h2>
        <button type="button" onClick={closeOverlay}>
          Close
        </button>
      </div>
      <div className="modal-body">
        <table className="shortcut-table" aria-label="Keyboard shortcuts">
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.what}>
                <th scope="row">
                  {shortcut.keys.map((key, index) => (
                    <span key={key}>
                      {index > 0 ? ' ' : null}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </th>
                <td>{shortcut.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Modal>
  );
}
