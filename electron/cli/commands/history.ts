import { parseArgs } from 'node:util';
import { describeTotals } from '../../../shared/history/changeSetFiles';
import {
  CAUSE_LABELS,
  type Certainty,
  type ChangeCause,
  type ChangeSetSummary,
  type FileChangeKind,
} from '../../../shared/history/historyModel';
import type { ProjectRef } from '../../../shared/model/home';
import type { Engine } from '../../core/engine';
import { createCliEngine } from '../cliEngine';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';
import { countOf } from '../../../shared/text/plural';

/** One element of `ccmem history --json`'s `changeSets`: a stable schema scripts rely on. */
export interface ChangeSetJson {
  readonly id: string;
  readonly time: string;
  readonly cause: ChangeCause;
  readonly sessionId: string | null;
  readonly turnUuid: string | null;
  readonly reconstructed: boolean;
  readonly files: readonly {
    readonly path: string;
    readonly kind: FileChangeKind;
    readonly before: string | null;
    readonly after: string | null;
    readonly linesAdded: number;
    readonly linesRemoved: number;
    readonly certainty: Certainty;
  }[];
}

export function toChangeSetJson(changeSet: ChangeSetSummary): ChangeSetJson {
  return {
    id: changeSet.id,
    time: changeSet.time,
    cause: changeSet.cause,
    sessionId: changeSet.sessionId,
    turnUuid: changeSet.turnUuid,
    reconstructed: changeSet.reconstructed,
    files: changeSet.files.map((file) => ({
      path: file.path,
      kind: file.kind,
      before: file.before,
      after: file.after,
      linesAdded: file.linesAdded,
      linesRemoved: file.linesRemoved,
      certainty: file.certainty,
    })),
  };
}

/** The project a slug names, in whichever config root has it; several roots with the slug is an error. */
export async function projectBySlug(engine: Engine, slug: string): Promise<ProjectRef> {
  const matches = (await engine.home.getHome()).projects.filter((p) => p.slug === slug);
  if (matches.length === 0) throw new CliError(`no project ${slug}; see \`ccmem projects\``);
  if (matches.length > 1)
    throw new CliError(
      `${slug} exists under several config roots (${matches.map((p) => p.configRoot).join(', ')}); set CLAUDE_CONFIG_DIR to one`,
    );
  return { configRoot: matches[0].configRoot, slug: matches[0].slug };
}

/** Who made a change set, as the History page names it: "Claude Code session <id>", "Dream", "Memory extraction (session <id>)". */
function changeSetAuthor(changeSet: ChangeSetSummary): string {
  const label = CAUSE_LABELS[changeSet.cause];
  if (!changeSet.sessionId) return label;
  return changeSet.cause === 'session' ? `${label} ${changeSet.sessionId}` : `${label} (session ${changeSet.sessionId})`;
}

function changeSetText(changeSet: ChangeSetSummary): string {
  const rebuilt = changeSet.reconstructed ? '  (reconstructed)' : '';
  const lines = [
    `${changeSet.timeKnown ? '' : '≥ '}${changeSet.time}  ${changeSetAuthor(changeSet)}  ${describeTotals(changeSet.totals)}  ${changeSet.folderLabel}${rebuilt}`,
    `  id ${changeSet.id}`,
  ];
  for (const file of changeSet.files) {
    const lineCounts = file.certainty === 'exact' ? `+${file.linesAdded} −${file.linesRemoved}` : 'content not known';
    lines.push(`  ${file.kind.padEnd(8)} ${file.path}  ${lineCounts}${file.gap ? `  (${file.gap})` : ''}`);
  }
  return lines.join('\n');
}

/** `--since`: an ISO date or time; a bare date means its start (UTC). */
export function sinceOption(value: string | undefined): string | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new CliError(`--since ${value} is not a date (use YYYY-MM-DD or an ISO time)`, 2);
  return new Date(ms).toISOString();
}

/**
 * `ccmem history [--project SLUG] [--file PATH] [--since DATE] [--json]`: records what changed since the last
 * run and reconstructs what came before history started (in the app's data folder only), then lists the
 * change sets, newest first.
 */
export async function runHistory(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--project', '--file', '--since']),
    options: {
      project: { type: 'string' },
      file: { type: 'string' },
      since: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const since = sinceOption(values.since);
  const engine = await createCliEngine(io, { readOnly: true });
  try {
    const project = values.project === undefined ? null : await projectBySlug(engine, values.project);
    const report = await engine.memoryHistory.recordNow();
    const page = await engine.memoryHistory.listChangeSets({
      project,
      path: values.file ?? null,
      since,
      limit: Number.MAX_SAFE_INTEGER,
    });
    if (values.json) {
      io.stdout(`${JSON.stringify({ changeSets: page.changeSets.map(toChangeSetJson) }, null, 2)}\n`);
      return 0;
    }
    if (report.versions > 0) io.stdout(`Recorded ${countOf(report.versions, 'new version')}.\n`);
    if (page.status.rebuilt) io.stdout(`History was rebuilt on ${page.status.rebuiltAt}: earlier history is gone.\n`);
    if (page.changeSets.length === 0) io.stdout(`No changes recorded${page.status.startedAt ? ` since ${page.status.startedAt}` : ''}.\n`);
    else io.stdout(`${page.changeSets.map(changeSetText).join('\n\n')}\n`);
    return 0;
  } finally {
    await engine.dispose();
  }
}
