import type { TokenUsage } from '../../../shared/jobs/jobTypes';
import { costOf } from '../../../shared/model/modelPricing';
import type { LlmUsage } from '../llm/llmTypes';

/**
 * How a job's spending is counted: at list price from the tokens (an API key), or not in dollars at all (a Claude
 * subscription, whose usage limits are not dollars).
 */
export type UsageBilling = 'list-price' | 'subscription';

/**
 * Tokens and dollars a job has spent so far. Claude Code reports its own final count and cost when a run ends;
 * `settle` puts those in place of the running estimate, and the cost of settled runs is the one it reported.
 */
export class UsageMeter {
  private input = 0;
  private output = 0;
  /** The part of the usage whose cost a backend reported, and that cost. */
  private reportedInput = 0;
  private reportedOutput = 0;
  private reportedCost = 0;

  constructor(
    readonly model: string,
    private readonly billing: UsageBilling = 'list-price',
  ) {}

  add(usage: LlmUsage): void {
    this.input += usage.inputTokens;
    this.output += usage.outputTokens;
  }

  /** Replaces a run's running estimate (already added) with its final count, and its cost when one was reported. */
  settle(estimated: LlmUsage, final: LlmUsage, reportedCostUsd: number | null): void {
    this.input += final.inputTokens - estimated.inputTokens;
    this.output += final.outputTokens - estimated.outputTokens;
    if (reportedCostUsd === null) return;
    this.reportedInput += final.inputTokens;
    this.reportedOutput += final.outputTokens;
    this.reportedCost += reportedCostUsd;
  }

  usage(): TokenUsage {
    return { input: this.input, output: this.output };
  }

  totalTokens(): number {
    return this.input + this.output;
  }

  /** US dollars so far; null on a subscription, or when part of the usage has no known price. */
  costUsd(): number | null {
    return this.costWith({ inputTokens: 0, outputTokens: 0 });
  }

  /** What the spend would be after one more call of this size; null when it is not counted in dollars. */
  costAfter(next: LlmUsage): number | null {
    return this.costWith(next);
  }

  private costWith(next: LlmUsage): number | null {
    if (this.billing === 'subscription') return null;
    const unpriced = {
      inputTokens: this.input - this.reportedInput + next.inputTokens,
      outputTokens: this.output - this.reportedOutput + next.outputTokens,
    };
    const settled = this.reportedInput + this.reportedOutput > 0;
    if (settled && unpriced.inputTokens <= 0 && unpriced.outputTokens <= 0) return this.reportedCost;
    const listed = costOf(this.model, unpriced);
    return listed === null ? null : this.reportedCost + listed;
  }
}
