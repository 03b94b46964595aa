import { emojiRuns } from '../../shared/names.ts';

/**
 * A category's name or description as it is shown, its emoji hidden from
 * screen readers: they decorate, and "money bag Betting Strategies" on every
 * link says nothing the words do not.
 */
export function Decorated({ text }: { text: string }) {
  // One element: in a flex container (a topic chip, a footer link) the name stays one item, its spaces kept.
  return (
    <span>
      {emojiRuns(text).map((run, i) =>
        run.emoji ? (
          <span key={i} aria-hidden="true">
            {run.text}
          </span>
        ) : (
          run.text
        ),
      )}
    </span>
  );
}
