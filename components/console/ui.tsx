import Link from "next/link";
import type { ReactNode } from "react";

/** Small server-rendered building blocks of the console. */

export function Flash({ notice, error }: { notice?: string; error?: string }) {
  if (error)
    return (
      <p role="alert" className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-red-900">
        {error}
      </p>
    );
  if (notice)
    return (
      <p role="status" className="mb-4 rounded border border-emerald-200 bg-emerald-50 p-3 text-emerald-900">
        {notice}
      </p>
    );
  return null;
}

export function PageTitle({ children, sub }: { children: ReactNode; sub?: ReactNode }) {
  return (
    <header className="mb-6">
      <h1 className="text-2xl font-semibold">{children}</h1>
      {sub && <p className="mt-1 text-slate-600">{sub}</p>}
    </header>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">{children}</p>;
}

export function Card({ children, title }: { children: ReactNode; title?: ReactNode }) {
  return (
    <section className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      {title && <h2 className="mb-3 font-semibold">{title}</h2>}
      {children}
    </section>
  );
}

export function Badge({ children }: { children: ReactNode }) {
  return <span className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-800">{children}</span>;
}

export function Pager({ path, page, hasMore, params = {} }: { path: string; page: number; hasMore: boolean; params?: Record<string, string> }) {
  const href = (p: number) => `${path}?${new URLSearchParams({ ...params, page: String(p) })}`;
  return (
    <nav aria-label="Pagination" className="mt-4 flex gap-3 text-sm">
      {page > 1 && (
        <Link className="text-blue-700 underline" href={href(page - 1)}>
          ← Previous
        </Link>
      )}
      {hasMore && (
        <Link className="text-blue-700 underline" href={href(page + 1)}>
          Next →
        </Link>
      )}
    </nav>
  );
}

export const input = "rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-200";
export const primary =
  "rounded bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-slate-700 focus:outline-none focus:ring-2 focus:ring-slate-400";
export const danger = "rounded bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-600 focus:outline-none focus:ring-2 focus:ring-red-300";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export function param(sp: Record<string, string | string[] | undefined>, key: string): string | undefined {
  const v = sp[key];
  return Array.isArray(v) ? v[0] : v;
}

/** A customer as operators look for them: the name first, the id beside it (before a profile: the id alone). */
export function CustomerLabel({ name, id, href }: { name: string | null; id: string; href?: string }) {
  const label = name ?? "No profile yet";
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5" data-testid="customer-label">
      {href ? (
        <Link className="font-medium text-blue-700 underline" href={href}>
          {label}
        </Link>
      ) : (
        <span className={name ? "font-medium" : "italic text-slate-500"}>{label}</span>
      )}
      <span className="font-mono text-xs text-slate-500">{id}</span>
    </span>
  );
}

/** A partner as operators know it: the name, the `partner_…` id beside it. */
export function PartnerLabel({ name, id }: { name: string | null | undefined; id: string }) {
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1.5" data-testid="partner-label">
      <span className="font-medium">{name ?? "Unknown partner"}</span>
      <span className="font-mono text-xs text-slate-500">{id}</span>
    </span>
  );
}
