import { emojiRuns } from '../../shared/names.ts';

/**
 * A category's name or description as it is shown, its emoji hidden from
 * screen readers: they decorate, and "money bag Betting Strategies" on every
 * link says nothing the words do not.
 */
export function Decorated({ text }: { text: string }) {
  return (
    <>
      {emojiRuns(text).map((run, i) =>
        run.emoji ? (
          <span key={i} aria-hidden="true">
            {run.text}
          </span>
        ) : (
          run.text
        ),
      )}
    </>
  );
}
