/**
 * The spending cap of a run (--max-cost, generation.budget in site.json):
 * before each call the run reserves what that call may cost, and a call that
 * could take the spending past the cap is not made. Calls in flight hold their
 * reservation, so concurrency cannot overshoot; a call that does not fit waits
 * for those in flight before it is refused. What a call may cost is the
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
  private readonly waiting: (() => void)[] = [];

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

  /**
   * Holds the estimate of one call until it ends. A call that could pass the cap waits while others
   * are in flight (their answers settle the estimate and the spending); with none in flight it is
   * refused with BUDGET_REACHED.
   */
  async reserve(requestChars: number): Promise<Reservation> {
    for (;;) {
      const estimate = this.estimateUsd(requestChars);
      const spent = this.spentUsd();
      if (spent + this.reservedUsd + estimate <= this.options.limitUsd) return this.hold(estimate);
      if (this.reservedUsd <= 0) {
        throw new FeltError(
          'BUDGET_REACHED',
          `stopped before the budget of $${this.options.limitUsd} would be passed: $${spent.toFixed(4)} spent, the next article may cost $${estimate.toFixed(4)}`,
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private hold(estimate: number): Reservation {
    this.reservedUsd += estimate;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.reservedUsd -= estimate;
        // Float sums drift: with nothing held, nothing is reserved.
        if (this.reservedUsd < 1e-12) this.reservedUsd = 0;
        for (const wake of this.waiting.splice(0)) wake();
      },
    };
  }

  /** The cost of a call that came back. */
  observe(callUsd: number): void {
    this.dearestCallUsd = Math.max(this.dearestCallUsd, callUsd);
  }
}
