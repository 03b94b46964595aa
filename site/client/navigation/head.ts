/** Swaps the page's own head tags, kept between the two felt-head markers. */
export function swapHead(headHtml: string, title: string): void {
  const start = document.head.querySelector('meta[name="felt-head"][content="start"]');
  const end = document.head.querySelector('meta[name="felt-head"][content="end"]');
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
