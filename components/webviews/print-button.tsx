"use client";

/** The hosted receipt's print button (the page itself is printable without it). */
export function PrintButton({ label }: { label: string }) {
  return (
    <button type="button" onClick={() => window.print()} className="rounded-lg bg-slate-900 px-4 py-2 text-white print:hidden" data-testid="receipt-print">
      {label}
    </button>
  );
}
