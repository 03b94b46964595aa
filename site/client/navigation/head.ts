/** The two felt-head markers of a document's head, which the page's own tags are kept between. */
function markers(of: Document): { start: Element | null; end: Element | null } {
  return {
    start: of.head.querySelector('meta[name="felt-head"][content="start"]'),
    end: of.head.querySelector('meta[name="felt-head"][content="end"]'),
  };
}

/** A page's own head tags (title, description, canonical, Open Graph, JSON-LD…) from its parsed HTML, as markup. */
export function headTagsOf(page: Document): string {
  const { start, end } = markers(page);
  if (!start || !end) return '';
  let html = '';
  for (let node = start.nextElementSibling; node && node !== end; node = node.nextElementSibling) html += node.outerHTML;
  return html;
}

/** Swaps the page's own head tags, kept between the two felt-head markers. */
export function swapHead(headHtml: string, title: string): void {
  const { start, end } = markers(document);
  if (!start || !end) {
    document.title = title;
    return;
  }
  while (start.nextSibling && start.nextSibling !== end) start.nextSibling.remove();
  const template = document.createElement('template');
  template.innerHTML = headHtml;
  end.before(template.content);
  document.title = title;
}
