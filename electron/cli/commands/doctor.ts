import { parseArgs } from 'node:util';
import { doctorFails, type DoctorFolderJson, type DoctorReport } from '../../../shared/memory/doctorReport';
import { SEVERITY_ORDER } from '../../../shared/memory/findingCodes';
import { estimateTokens } from '../../../shared/memory/textMetrics';
import { CodedError } from '../../../shared/result';
import { createCliEngine } from '../cliEngine';
import { runDoctor } from '../../core/memory/runDoctor';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';
import { runDoctorFix } from './doctorFix';
import { countOf } from '../../../shared/text/plural';

function folderText(heading: string, folder: DoctorFolderJson): string {
  const lines = [heading, `  memory: ${folder.memoryDir}`];
  const { index } = folder;
  lines.push(
    index.chars === 0
      ? '  MEMORY.md: none'
      : `  MEMORY.md: ${countOf(index.lines, 'line')}, ${index.chars} characters, ${index.truncated ? 'CUT when loaded' : 'loaded whole'} (~${estimateTokens(index.loadedText)} tokens, estimated)`,
  );
  const outside = folder.files.filter((f) => !f.inScan).length;
  lines.push(`  ${countOf(folder.files.length, 'topic file')}${outside > 0 ? `, ${outside} beyond the 200 Claude Code considers` : ''}`);
  const findings = [...folder.findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  if (findings.length === 0) lines.push('  no findings');
  for (const f of findings) {
    const place = f.file === null ? '(folder)' : f.line === null ? f.file : `${f.file}:${f.line}`;
    lines.push(`  ${f.severity.padEnd(5)} ${f.code.padEnd(32)} ${place}  ${f.message}`);
  }
  return lines.join('\n');
}

function reportText(report: DoctorReport): string {
  const blocks = report.projects.map((p) => folderText(`${p.path ?? p.slug}`, p));
  for (const agent of report.agents ?? []) blocks.push(folderText(`agent ${agent.agentType} (${agent.scope})`, agent));
  if (blocks.length === 0) return 'No memory folders found.\n';
  const all = [...report.projects, ...(report.agents ?? [])].flatMap((f) => f.findings);
  const count = (severity: string) => all.filter((f) => f.severity === severity).length;
  return `${blocks.join('\n\n')}\n\n${countOf(all.length, 'finding')}: ${count('error')} errors, ${count('warn')} warnings, ${count('info')} info\n`;
}

/**
 * `ccmem doctor [--project SLUG] [--json] [--strict] [--agents]`: checks memory folders and prints the findings.
 * Exit 0 even with findings; with --strict, exit 1 on any warning or error (a pre-commit check). Reads only.
 * With `--fix CODE` it cures the findings with that code instead (see doctorFix.ts).
 */
export async function runDoctorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--project', '--fix', '--cure', '--file']),
    options: {
      project: { type: 'string' },
      json: { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      agents: { type: 'boolean', default: false },
      fix: { type: 'string' },
      cure: { type: 'string' },
      file: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.fix !== undefined) {
    if (values.strict || values.agents) throw new CliError('--fix cures a project memory; --strict and --agents belong to the check', 2);
    return runDoctorFix(
      { code: values.fix, cure: values.cure, file: values.file, project: values.project, dryRun: values['dry-run'], json: values.json },
      io,
    );
  }
  if (values.cure !== undefined || values.file !== undefined || values['dry-run'])
    throw new CliError('--cure, --file and --dry-run go with --fix CODE', 2);
  const engine = await createCliEngine(io, { readOnly: true });
  let report: DoctorReport;
  try {
    report = await runDoctor({ home: engine.home, project: values.project ?? null, agents: values.agents });
  } catch (error) {
    if (error instanceof CodedError && error.code === 'NOT_FOUND') throw new CliError(error.message, 2);
    throw error;
  } finally {
    await engine.dispose();
  }
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
  return values.strict && doctorFails(report) ? 1 : 0;
}
