import { FINDING_CODES, type FindingCode } from '../../../shared/memory/findingCodes';
import type { MemoryFinding } from '../../../shared/memory/findings';
import { curesFor, DEFAULT_CURES } from '../../../shared/memory/fixes/fixCatalog';
import { MEMORY_FIX_KINDS, type MemoryFix, type MemoryFixKind, type MemoryFixPlan } from '../../../shared/memory/fixes/memoryFix';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { CodedError } from '../../../shared/result';
import { unifiedDiff } from '../../core/jobs/proposalDiff';
import type { Engine } from '../../core/engine';
import { createCliEngine } from '../cliEngine';
import { CliError, type CliIo } from '../cliIo';

export interface DoctorFixOptions {
  readonly code: string;
  readonly cure: string | undefined;
  readonly file: string | undefined;
  readonly project: string | undefined;
  readonly dryRun: boolean;
  readonly json: boolean;
}

/** One project of `ccmem doctor --fix … --json`: a stable schema scripts rely on. */
export interface DoctorFixProjectJson {
  readonly slug: string;
  readonly path: string | null;
  readonly summary: string;
  readonly fixes: readonly MemoryFix[];
  readonly skipped: readonly { readonly fix: MemoryFix; readonly reason: string }[];
  readonly files: readonly { readonly path: string; readonly change: 'add' | 'modify' | 'delete'; readonly diff: string | null }[];
  readonly refusal: string | null;
  /** The history change set the fixes landed as (undo it with `ccmem revert --change-set ID`); null on a dry run or refusal. */
  readonly changeSetId: string | null;
}

function chosenCode(code: string): FindingCode {
  const curable = FINDING_CODES.filter((c) => DEFAULT_CURES[c] !== undefined);
  if (!(curable as readonly string[]).includes(code))
    throw new CliError(`--fix takes a finding code with a cure: ${curable.join(', ')}`, 2);
  return code as FindingCode;
}

function chosenCure(code: FindingCode, cure: string | undefined): MemoryFixKind {
  if (cure === undefined) return DEFAULT_CURES[code] as MemoryFixKind;
  if (!(MEMORY_FIX_KINDS as readonly string[]).includes(cure)) throw new CliError(`--cure is one of ${MEMORY_FIX_KINDS.join(', ')}`, 2);
  return cure as MemoryFixKind;
}

/**
 * The fixes for every `code` finding of a folder (on `file` when given), each the chosen cure. A near-duplicate pair
 * is merged once: into `file` when given, else into the first of the two by name.
 */
function fixesFor(findings: readonly MemoryFinding[], files: readonly string[], code: FindingCode, kind: MemoryFixKind, file?: string) {
  const fixes = new Map<string, MemoryFix>();
  for (const finding of findings) {
    if (finding.code !== code || (file !== undefined && finding.file !== file)) continue;
    if (code === 'duplicate.near' && file === undefined && finding.related !== null && (finding.file ?? '') > finding.related) continue;
    const cure = curesFor(finding, files).find((candidate) => candidate.fix.kind === kind);
    if (cure) fixes.set(JSON.stringify(cure.fix), cure.fix);
  }
  return [...fixes.values()];
}

function projectJson(
  project: { slug: string; path: string | null },
  plan: MemoryFixPlan,
  changeSetId: string | null,
): DoctorFixProjectJson {
  return {
    slug: project.slug,
    path: project.path,
    summary: plan.summary,
    fixes: plan.outcomes.filter((o) => o.applied).map((o) => o.fix),
    skipped: plan.outcomes.filter((o) => !o.applied).map((o) => ({ fix: o.fix, reason: o.note ?? '' })),
    files: plan.files.map((f) => ({ path: f.path, change: f.change, diff: f.shown ? unifiedDiff(f.path, f.before, f.after) : null })),
    refusal: plan.refusal,
    changeSetId,
  };
}

function projectText(result: DoctorFixProjectJson, dryRun: boolean): string {
  const lines = [`${result.path ?? result.slug}`];
  for (const skipped of result.skipped) lines.push(`  skipped: ${skipped.reason}`);
  for (const file of result.files)
    lines.push(file.diff ?? `  ${file.change} ${file.path} (too large to show; ccmem history shows it once applied)\n`);
  if (result.refusal) lines.push(`  refused: ${result.refusal}`);
  else if (result.files.length === 0) lines.push('  nothing to change');
  else if (dryRun) lines.push(`  planned: ${result.summary} (dry run: nothing was written)`);
  else lines.push(`  ${result.summary} (change set ${result.changeSetId}; undo: ccmem revert --change-set ${result.changeSetId})`);
  return `${lines.join('\n')}\n`;
}

async function fixProject(engine: Engine, ref: MemoryFolderRef, fixes: readonly MemoryFix[], dryRun: boolean) {
  const plan = await engine.memoryFixes.plan(ref, fixes);
  if (dryRun || plan.refusal || plan.files.length === 0) return { plan, changeSetId: null };
  const applied = await engine.memoryFixes.apply(ref, { fixes: plan.fixes, bases: plan.bases });
  return { plan, changeSetId: applied.changeSetId };
}

/**
 * `ccmem doctor --fix CODE [--cure KIND] [--file PATH] [--project SLUG] [--dry-run] [--json]`: applies the cure of
 * every finding with that code (one change set per project, through the same writer as the app) and prints each
 * file's diff; `--dry-run` prints the diffs and writes nothing. Exit 1 when a project's fix is refused.
 */
export async function runDoctorFix(options: DoctorFixOptions, io: CliIo): Promise<number> {
  const code = chosenCode(options.code);
  const kind = chosenCure(code, options.cure);
  const engine = await createCliEngine(io, { readOnly: options.dryRun });
  const results: DoctorFixProjectJson[] = [];
  try {
    const projects = (await engine.home.getHome()).projects.filter((p) =>
      options.project ? p.slug === options.project : p.memoryDirExists,
    );
    if (options.project && projects.length === 0) throw new CliError(`no project ${options.project}; see \`ccmem projects\``, 2);
    for (const project of projects) {
      const ref: MemoryFolderRef = { kind: 'project', configRoot: project.configRoot, slug: project.slug };
      const review = await engine.memory.getReview(ref);
      const fixes = fixesFor(
        review.findings,
        review.files.map((f) => f.relativePath),
        code,
        kind,
        options.file,
      );
      if (fixes.length === 0) continue;
      const { plan, changeSetId } = await fixProject(engine, ref, fixes, options.dryRun);
      results.push(projectJson(project, plan, changeSetId));
    }
  } catch (error) {
    if (error instanceof CodedError) throw new CliError(error.message);
    throw error;
  } finally {
    await engine.dispose();
  }
  if (options.json) io.stdout(`${JSON.stringify({ code, cure: kind, dryRun: options.dryRun, projects: results }, null, 2)}\n`);
  else if (results.length === 0) io.stdout(`No ${code} finding${options.file ? ` on ${options.file}` : ''} to cure with ${kind}.\n`);
  else io.stdout(results.map((result) => projectText(result, options.dryRun)).join('\n'));
  return results.some((result) => result.refusal !== null) ? 1 : 0;
}
