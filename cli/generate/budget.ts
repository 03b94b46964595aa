/**
 * The spending cap of a run (--max-cost, generation.budget in site.json):
 * before each call the run reserves what that call may cost, and a call that
 * could take the spending past the cap is not made. Calls in flight hold their
 * reservation, so concurrency cannot overshoot. What a call may cost is the
 * dearest call seen so far (same prompts, same lengths), or before the first
 * answer an estimate from the request's size and the locale's longest article.
 */
import { FeltError } from '../../shared/errors.ts';
import { CHARS_PER_TOKEN, costUsd, type Price, type Usage } from './llm.ts';

export interface BudgetOptions {
  limitUsd: number;
  price: Price;
  /** Output tokens to expect of one answer before any has come back. */
  expectedCompletionTokens: number;
}

export interface Reservation {
  release(): void;
}

export class Budget {
  private reservedUsd = 0;
  private dearestCallUsd = 0;

  constructor(
    readonly options: BudgetOptions,
    private readonly usage: Usage,
  ) {}

  spentUsd(): number {
    return costUsd(this.usage, this.options.price) ?? 0;
  }

  /** What one call of `requestChars` characters may cost. */
  estimateUsd(requestChars: number): number {
    const { price, expectedCompletionTokens } = this.options;
    const prompt = ((requestChars / CHARS_PER_TOKEN) * price.input) / 1_000_000;
    if (this.dearestCallUsd > 0) return Math.max(this.dearestCallUsd, prompt);
    return prompt + (expectedCompletionTokens * price.output) / 1_000_000;
  }

  /** Holds the estimate of one call until it ends; throws BUDGET_REACHED when the call could pass the cap. */
  reserve(requestChars: number): Reservation {
    const estimate = this.estimateUsd(requestChars);
    const spent = this.spentUsd();
    if (spent + this.reservedUsd + estimate > this.options.limitUsd) {
      throw new FeltError(
        'BUDGET_REACHED',
        `stopped before the budget of $${this.options.limitUsd} would be passed: $${spent.toFixed(4)} spent, the next article may cost $${estimate.toFixed(4)}`,
      );
    }
    this.reservedUsd += estimate;
    let held = true;
    return {
      release: () => {
        if (held) this.reservedUsd -= estimate;
        held = false;
      },
    };
  }

  /** The cost of a call that came back. */
  observe(callUsd: number): void {
    this.dearestCallUsd = Math.max(this.dearestCallUsd, callUsd);
  }
}
