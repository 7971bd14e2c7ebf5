/** `ccmem doctor --json`: a stable, documented schema that scripts and pre-commit hooks rely on. */
import type { AgentMemoryScope } from '../model/agents';
import type { MemoryType } from '../model/memory';
import type { FindingCode, FindingSeverity } from './findingCodes';

export interface DoctorIndexJson {
  /** Lines and characters of the trimmed MEMORY.md, as Claude Code counts them (0 when there is none). */
  readonly lines: number;
  readonly chars: number;
  readonly truncated: boolean;
  /** Exactly what the model is given from MEMORY.md ('' when there is none). */
  readonly loadedText: string;
}

export interface DoctorFileJson {
  /** Relative to memoryDir; team memory under `team/`. */
  readonly path: string;
  /** One of the four types, or null when it is missing or unknown. */
  readonly type: MemoryType | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly mtime: string;
  readonly bytes: number;
  /** Among the 200 newest topic files, so offered for recall. */
  readonly inScan: boolean;
  readonly findings: readonly FindingCode[];
}

export interface DoctorFindingJson {
  readonly code: FindingCode;
  readonly severity: FindingSeverity;
  readonly file: string | null;
  readonly line: number | null;
  readonly message: string;
}

export interface DoctorFolderJson {
  readonly memoryDir: string;
  readonly index: DoctorIndexJson;
  readonly files: readonly DoctorFileJson[];
  readonly findings: readonly DoctorFindingJson[];
}

export interface DoctorProjectJson extends DoctorFolderJson {
  readonly slug: string;
  readonly path: string | null;
}

export interface DoctorAgentJson extends DoctorFolderJson {
  readonly agentType: string;
  readonly scope: AgentMemoryScope;
}

export interface DoctorReport {
  readonly projects: readonly DoctorProjectJson[];
  /** Present only with `--agents`. */
  readonly agents?: readonly DoctorAgentJson[];
}

/** `--strict` fails on any warning or error; info findings never fail. */
export function doctorFails(report: DoctorReport): boolean {
  return [...report.projects, ...(report.agents ?? [])].some((folder) => folder.findings.some((f) => f.severity !== 'info'));
}
