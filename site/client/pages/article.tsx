/** The article's component chunk: hydrates its copy-link buttons. */
import { hydrateRoot } from 'react-dom/client';
import { CopyLink } from '../../islands/CopyLink.tsx';
import type { StaticQueryData } from '../../islands/types.ts';

export function hydrate(root: ParentNode, data: StaticQueryData): () => void {
  const roots = [...root.querySelectorAll<HTMLElement>('[data-island="copy-link"]')].flatMap((island) => {
    const url = island.dataset.url;
    if (!url) return [];
    return [hydrateRoot(island, <CopyLink url={url} label={data.copy.copyLink} copied={data.copy.copied} prompt={data.copy.prompt} />)];
  });
  return () => roots.forEach((r) => r.unmount());
}
