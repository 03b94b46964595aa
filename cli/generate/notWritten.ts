/**
 * The articles a run did not write, by why: skipped, an answer the checks refused (a rerun asks again and may get a
 * better one); failed, no answer to judge (the provider or the storage failed). One home for the direct run's lines
 * and a batch collection's, which the CLI loads without the generator's modules.
 */

/** The slots whose answers the checks refused, of those not stored. */
export function refusedCount(failed: readonly { cause: string }[]): number {
  return failed.filter((f) => f.cause === 'checks').length;
}
