/** The two felt-head markers of a document's head, which the page's own tags are kept between. */
function markers(of: Document): { start: Element | null; end: Element | null } {
  return {
    start: of.head.querySelector('meta[name="felt-head"][content="start"]'),
    end: of.head.querySelector('meta[name="felt-head"][content="end"]'),
  };
}

/** A page's own head tags (title, description, canonical, Open Graph, JSON-LD…) from its parsed HTML. */
export function headTagsOf(page: Document): Element[] {
  const { start, end } = markers(page);
  const tags: Element[] = [];
  if (!start || !end) return tags;
  for (let node = start.nextElementSibling; node && node !== end; node = node.nextElementSibling) tags.push(node);
  return tags;
}

/**
 * Swaps the page's own head tags, kept between the two felt-head markers, for copies of `tags` (parsed inert, from
 * another document: copies, so that the same page can be shown again; a script among them does not run).
 */
export function swapHead(tags: readonly Element[], title: string): void {
  const { start, end } = markers(document);
  if (!start || !end) {
    document.title = title;
    return;
  }
  while (start.nextSibling && start.nextSibling !== end) start.nextSibling.remove();
  end.before(...tags.map((tag) => document.importNode(tag, true)));
  document.title = title;
}
