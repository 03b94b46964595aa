/** The article's component chunk: hydrates its copy-link buttons. */
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { CopyLink } from '../../islands/CopyLink.tsx';
import type { StaticQueryData } from '../../islands/types.ts';

export function hydrate(root: ParentNode, data: StaticQueryData): () => void {
  const roots: Root[] = [];
  // A transition, as in main.tsx: hydration in small slices, not one long task.
  startTransition(() => {
    for (const island of root.querySelectorAll<HTMLElement>('[data-island="copy-link"]')) {
      const url = island.dataset.url;
      if (url) roots.push(hydrateRoot(island, <CopyLink url={url} label={data.copy.copyLink} copied={data.copy.copied} prompt={data.copy.prompt} />));
    }
  });
  return () => roots.forEach((r) => r.unmount());
}
