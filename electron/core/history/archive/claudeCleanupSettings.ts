import { join } from 'node:path';
import {
  DEFAULT_CLEANUP_PERIOD_DAYS,
  SHORT_CLEANUP_PERIOD_DAYS,
  type ArchiveSettings,
  type CleanupSetting,
} from '../../../../shared/model/archive';
import { readSettingsFile } from '../../layout/settingsFiles';

/**
 * `cleanupPeriodDays` as each config root's user `settings.json` sets it. Claude Code deletes, at its start, every
 * transcript last changed longer ago than that (claude-code-state.md §1); a value that is not a number is ignored,
 * as Claude Code's settings validation does.
 */
export async function readCleanupSettings(configRoots: readonly string[]): Promise<CleanupSetting[]> {
  const out: CleanupSetting[] = [];
  for (const configRoot of configRoots) {
    const settingsPath = join(configRoot, 'settings.json');
    const raw = (await readSettingsFile(settingsPath)).values?.cleanupPeriodDays;
    const cleanupPeriodDays = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? raw : null;
    out.push({ configRoot, settingsPath, cleanupPeriodDays, effectiveDays: cleanupPeriodDays ?? DEFAULT_CLEANUP_PERIOD_DAYS });
  }
  return out;
}

function days(count: number): string {
  return count === 1 ? '1 day' : `${count} days`;
}

/** What the user should know about Claude Code's cleanup and the archive, in plain words. */
export function cleanupWarnings(cleanup: readonly CleanupSetting[], settings: ArchiveSettings): string[] {
  const warnings: string[] = [];
  for (const setting of cleanup) {
    if (setting.cleanupPeriodDays === 0) {
      warnings.push(
        `cleanupPeriodDays is 0 in ${setting.settingsPath}: Claude Code keeps no transcripts (current versions write none, ` +
          'older ones delete them all when they start), so there is nothing new to archive and session history is lost.',
      );
    } else if (setting.effectiveDays < SHORT_CLEANUP_PERIOD_DAYS) {
      warnings.push(
        `Claude Code deletes transcripts ${days(setting.effectiveDays)} after their last change (cleanupPeriodDays in ` +
          `${setting.settingsPath}), sooner than its default of ${DEFAULT_CLEANUP_PERIOD_DAYS}. ` +
          (settings.enabled
            ? `Open this app (or run \`ccmem archive\`) at least every ${days(setting.effectiveDays)} so the archive keeps a copy.`
            : 'The archive is off, so what it deletes is lost.'),
      );
    }
  }
  if (!settings.enabled) {
    const shortest = cleanup.length > 0 ? Math.min(...cleanup.map((setting) => setting.effectiveDays)) : DEFAULT_CLEANUP_PERIOD_DAYS;
    warnings.push(`The archive is off: transcripts Claude Code deletes after ${days(shortest)} are no longer kept.`);
  }
  return warnings;
}
