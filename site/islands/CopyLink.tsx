/**
 * "Copy link" (SPEC section 4): shows the copied state for 3 seconds; when
 * the clipboard is refused, falls back to a prompt holding the text and the
 * platform's copy keys.
 */
import { useEffect, useState } from 'react';
import { format } from './types.ts';

export const COPIED_MS = 3000;

export interface CopyLinkProps {
  url: string;
  label: string;
  copied: string;
  /** "Copy to clipboard: {keys}, Enter" */
  prompt: string;
}

function copyKeys(): string {
  const platform = typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent;
  return /Mac|iPhone|iPad|iPod/i.test(platform) ? 'Cmd+C' : 'Ctrl+C';
}

export function CopyLink({ url, label, copied, prompt }: CopyLinkProps) {
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => setDone(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [done]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setDone(true);
    } catch {
      window.prompt(format(prompt, { keys: copyKeys() }), url);
    }
  };

  return (
    <button type="button" className={`copy-link${done ? ' is-copied' : ''}`} onClick={copy}>
      <span aria-hidden="true" className="copy-icon">
        {done ? '✓' : '🔗'}
      </span>{' '}
      <span>{done ? copied : label}</span>
      <span className="visually-hidden" role="status">
        {done ? copied : ''}
      </span>
    </button>
  );
}
