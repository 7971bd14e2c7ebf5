import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { JobKind, JobRecord, JobSummary } from '../../../shared/jobs/jobTypes';
import { CodedError } from '../../../shared/result';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';

const JOB_ID = /^\d{8}T\d{6}Z-(dream|extraction)-[0-9a-f]{8}$/;
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** A new job id: sortable by time, and safe as a file name. */
export function newJobId(kind: JobKind, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return `${stamp}-${kind}-${randomBytes(4).toString('hex')}`;
}

function isJobId(id: string): boolean {
  return JOB_ID.test(id);
}

/** Everything of a record but the proposals' contents. */
export function summarizeJob(record: JobRecord): JobSummary {
  const { proposals: _proposals, refused: _refused, ...summary } = record;
  return summary;
}

/** Job records, one JSON file each in `<dataDir>/jobs/`, written atomically. */
export class JobRecordStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'jobs');
  }

  async save(record: JobRecord): Promise<void> {
    await replaceFileAtomically(this.pathOf(record.id), JSON.stringify(record));
  }

  async load(id: string): Promise<JobRecord> {
    if (!isJobId(id)) throw new CodedError('INVALID_INPUT', `Not a job id: ${id.slice(0, 80)}`);
    let text: string;
    try {
      const stats = await fs.stat(this.pathOf(id));
      if (stats.size > MAX_RECORD_BYTES) throw new CodedError('INTERNAL', `The record of job ${id} is too large to open`);
      text = await fs.readFile(this.pathOf(id), 'utf8');
    } catch (error) {
      if (error instanceof CodedError) throw error;
      throw new CodedError('NOT_FOUND', `No job ${id}`);
    }
    let record: JobRecord;
    try {
      record = JSON.parse(text) as JobRecord;
    } catch {
      throw new CodedError('INTERNAL', `The record of job ${id} is damaged`);
    }
    // Records kept before jobs had triggers were all started by hand.
    return record.trigger === undefined ? { ...record, trigger: 'user' } : record;
  }

  /** Every readable record, newest first; a damaged record is skipped rather than failing the list. */
  async list(): Promise<JobRecord[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const ids = names.filter((name) => name.endsWith('.json') && isJobId(name.slice(0, -5))).map((name) => name.slice(0, -5));
    const records: JobRecord[] = [];
    for (const id of ids.sort().reverse()) {
      try {
        records.push(await this.load(id));
      } catch {
        // Skipped: one broken file must not hide every other job.
      }
    }
    return records;
  }

  private pathOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }
}
