/** The empty-state picture: an empty card table, drawn inline (no external file). */
export function EmptyTable({ label }: { label: string }) {
  return (
    <svg className="search-empty-image" role="img" aria-label={label} viewBox="0 0 120 72" width="120" height="72">
      <ellipse cx="60" cy="38" rx="56" ry="30" fill="#6b4423" />
      <ellipse cx="60" cy="36" rx="50" ry="25" fill="#0d5c3f" />
      <ellipse cx="60" cy="36" rx="38" ry="17" fill="none" stroke="#f4e4bc" strokeOpacity="0.35" strokeWidth="1.5" strokeDasharray="4 3" />
      <rect x="48" y="27" width="11" height="16" rx="2" fill="none" stroke="#f4e4bc" strokeOpacity="0.6" strokeDasharray="2 2" />
      <rect x="62" y="27" width="11" height="16" rx="2" fill="none" stroke="#f4e4bc" strokeOpacity="0.6" strokeDasharray="2 2" />
    </svg>
  );
}
