import type { TokenUsage } from '../../../shared/jobs/jobTypes';
import { costOf } from '../../../shared/model/modelPricing';
import type { LlmUsage } from '../llm/llmTypes';

/** Tokens and dollars a job has spent so far. */
export class UsageMeter {
  private input = 0;
  private output = 0;

  constructor(readonly model: string) {}

  add(usage: LlmUsage): void {
    this.input += usage.inputTokens;
    this.output += usage.outputTokens;
  }

  usage(): TokenUsage {
    return { input: this.input, output: this.output };
  }

  totalTokens(): number {
    return this.input + this.output;
  }

  costUsd(): number | null {
    return costOf(this.model, { inputTokens: this.input, outputTokens: this.output });
  }

  /** What the spend would be after one more call of this size; null when the price is unknown. */
  costAfter(next: LlmUsage): number | null {
    return costOf(this.model, { inputTokens: this.input + next.inputTokens, outputTokens: this.output + next.outputTokens });
  }
}
