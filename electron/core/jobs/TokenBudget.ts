import { promises as fs } from 'node:fs';
import type { TokenBudgetStatus } from '../../../shared/jobs/backgroundJobs';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';
import { isRecord } from '../settings/appSettingsFile';

/** The local calendar day of a time, `YYYY-MM-DD`: the budget is per day as the user lives it. */
export function localDay(time: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}

/** The next local midnight after a time: when a spent budget starts again. */
export function nextLocalMidnight(time: Date): Date {
  return new Date(time.getFullYear(), time.getMonth(), time.getDate() + 1);
}

interface Ledger {
  readonly day: string;
  readonly spent: number;
}

/**
 * The tokens background jobs used today, kept in `<dataDir>/background/budget.json` so a restart does not
 * hand out the day's budget a second time. Read afresh each time: the app and a `ccmem dream --due` run by
 * cron may share one data folder. Jobs the user starts by hand are not counted.
 */
export class TokenBudget {
  /** Spending of this process, one after another, so two jobs finishing together both count. */
  private spending: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly now: () => Date,
  ) {}

  /** Tokens finished background jobs used today. */
  async spentToday(): Promise<number> {
    const ledger = await this.load();
    return ledger.day === localDay(this.now()) ? ledger.spent : 0;
  }

  /** Adds a finished job's tokens to today's total. */
  spend(tokens: number): Promise<void> {
    if (tokens <= 0) return Promise.resolve();
    this.spending = this.spending
      .catch(() => undefined)
      .then(async () => {
        const today = localDay(this.now());
        const ledger = await this.load();
        const next: Ledger = { day: today, spent: (ledger.day === today ? ledger.spent : 0) + tokens };
        await replaceFileAtomically(this.path, JSON.stringify(next));
      });
    return this.spending;
  }

  /** Today's figures with `running` tokens of a background job still under way counted in. */
  async status(limit: number, running: number): Promise<TokenBudgetStatus> {
    const now = this.now();
    const spent = (await this.spentToday()) + running;
    const exhausted = spent >= limit;
    return { day: localDay(now), limit, spent, exhausted, resumesAt: exhausted ? nextLocalMidnight(now).toISOString() : null };
  }

  private async load(): Promise<Ledger> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.path, 'utf8'));
      if (isRecord(parsed) && typeof parsed.day === 'string' && typeof parsed.spent === 'number' && parsed.spent >= 0)
        return { day: parsed.day, spent: parsed.spent };
    } catch {
      // Missing or damaged: nothing spent today as far as anyone can tell.
    }
    return { day: '', spent: 0 };
  }
}
