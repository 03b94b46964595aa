// felt dev's browser helper (served only by `felt dev`): reloads the page when
// a rebuild finishes, shows build errors over the page, and lets the editor
// retitle an article in place: click the title, type, Enter saves, Esc cancels.
(() => {
  const events = new EventSource('/__felt/events');
  // The build this page was served from (felt dev stamps it on this script's tag; none on its error page).
  const pageBuild = Number(document.querySelector('script[src="/__felt/dev.js"]')?.dataset.build);
  let session;
  // A new dev process (felt's code changed) greets with a new session: reload onto its build. So does a build that
  // finished before this page's event stream connected: its 'reload' went to the pages connected then.
  events.addEventListener('hello', (event) => {
    const { session: next, build } = JSON.parse(event.data);
    if ((session && session !== next) || (!session && build > pageBuild)) location.reload();
    session = next;
  });
  events.addEventListener('reload', () => location.reload());
  events.addEventListener('problem', (event) => showOverlay(JSON.parse(event.data)));

  function showOverlay(problem) {
    let overlay = document.getElementById('felt-dev-overlay');
    if (!overlay) {
      overlay = document.createElement('div');
      overlay.id = 'felt-dev-overlay';
      overlay.setAttribute('role', 'alertdialog');
      overlay.setAttribute('aria-label', 'Build error');
      overlay.style.cssText =
        'position:fixed;inset:0;z-index:9999;background:rgba(20,0,0,.92);color:#fff;font:14px/1.5 ui-monospace,monospace;padding:2rem;overflow:auto;white-space:pre-wrap';
      document.body.append(overlay);
    }
    // textContent, never innerHTML: problems quote content, which is untrusted.
    overlay.textContent = `${problem.title}\n\n${problem.lines.join('\n')}\n\nFix the files and save: the page reloads by itself.`;
  }

  const title = document.querySelector('main[data-kind="article"] .article-title');
  const slug = location.pathname.match(/^\/articles\/([a-z0-9-]+)\/?$/)?.[1];
  if (!title || !slug) return;
  title.title = 'Click to edit the title (Enter saves, Esc cancels)';
  title.style.cursor = 'text';
  let original = title.textContent;
  title.addEventListener('click', () => {
    if (title.isContentEditable) return;
    original = title.textContent;
    title.contentEditable = 'plaintext-only';
    title.focus();
  });
  title.addEventListener('keydown', async (event) => {
    if (event.key === 'Escape') {
      title.textContent = original;
      title.contentEditable = 'false';
      title.blur();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const value = title.textContent.replace(/[\r\n]+/g, ' ').trim();
      title.contentEditable = 'false';
      const response = await fetch('/__felt/title', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ slug, title: value }),
      });
      if (!response.ok) {
        title.textContent = original;
        showOverlay({ title: 'The title was not saved', lines: [await response.text()] });
      }
    }
  });
  title.addEventListener('paste', (event) => {
    event.preventDefault();
    document.execCommand('insertText', false, (event.clipboardData?.getData('text/plain') ?? '').replace(/[\r\n]+/g, ' '));
  });
})();
