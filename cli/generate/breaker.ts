/**
 * The circuit breaker of a generation run (issue 17): after `limit`
 * consecutive provider failures (a call that still failed once the SDK had
 * retried it: an outage, a refused key) the run stops starting new articles
 * and cancels those in flight. Without it an outage costs every remaining
 * slot its full retry schedule (about 31 s each) and ends with every slot
 * "failed"; with it the run ends after a handful of calls with one line.
 * Any answer that arrives, good or bad, closes the count: a model writing
 * bad articles is the quality gate's business, not an outage.
 */
export interface Trip {
  failures: number;
  lastReason: string;
}

export const DEFAULT_BREAKER_LIMIT = 5;

export class CircuitBreaker {
  private consecutive = 0;
  private trip: Trip | undefined;

  constructor(
    readonly limit: number,
    private readonly onTrip: (trip: Trip) => void,
  ) {}

  get tripped(): Trip | undefined {
    return this.trip;
  }

  success(): void {
    this.consecutive = 0;
  }

  failure(reason: string): void {
    this.consecutive++;
    if (this.trip || this.consecutive < this.limit) return;
    this.trip = { failures: this.consecutive, lastReason: reason };
    this.onTrip(this.trip);
  }
}
