"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

export interface NavGroup {
  label: string;
  links: (readonly [href: string, label: string])[];
}

const top = "rounded px-1.5 py-1.5 text-slate-200 hover:bg-slate-700 focus:outline-none focus:ring-2 focus:ring-white";

/**
 * The console's navigation: Overview, one menu per group of pages (Money,
 * Compliance, Books, Partners, Settings) and Approvals with the number of proposals this operator
 * may approve. A menu opens on click (or Enter/Space), closes on Escape, a click elsewhere or a
 * page change; its links are in the page (hidden while closed), so nothing depends on hovering.
 */
export function ConsoleNav({ groups, approvals }: { groups: NavGroup[]; approvals: number }) {
  const pathname = usePathname();
  // The menu open and the page it was opened on: a page change closes it without an effect.
  const [opened, setOpened] = useState<{ group: string; on: string } | null>(null);
  const open = opened?.on === pathname ? opened.group : null;
  const setOpen = (group: string | null) => setOpened(group ? { group, on: pathname } : null);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpened(null);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpened(null);
    };
    document.addEventListener("mousedown", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("mousedown", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);
  const current = (href: string) => (pathname === href ? "page" : undefined);
  return (
    <nav aria-label="Console" className="flex items-center text-[13px]" ref={ref}>
      <Link href="/console" className={top} aria-current={current("/console")} data-nav-top>
        Overview
      </Link>
      {groups.map((g) => {
        const id = `nav-${g.label.toLowerCase()}`;
        const here = g.links.some(([href]) => pathname === href || pathname.startsWith(`${href}/`));
        return (
          <div key={g.label} className="relative">
            <button
              type="button"
              className={`${top} ${here ? "bg-slate-700" : ""}`}
              aria-expanded={open === g.label}
              aria-controls={id}
              onClick={() => setOpen(open === g.label ? null : g.label)}
              data-nav-top
            >
              {g.label} <span aria-hidden="true">▾</span>
            </button>
            <ul
              id={id}
              hidden={open !== g.label}
              className="absolute left-0 top-full z-20 mt-1 min-w-48 rounded border border-slate-700 bg-slate-900 py-1 shadow-lg"
            >
              {g.links.map(([href, label]) => (
                <li key={href}>
                  <Link
                    href={href}
                    aria-current={current(href)}
                    className="block px-3 py-1.5 text-slate-200 hover:bg-slate-700 focus:bg-slate-700 focus:outline-none"
                  >
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      <Link href="/console/approvals" className={top} aria-current={current("/console/approvals")} data-nav-top>
        Approvals
        {approvals > 0 ? (
          <span
            className="ml-1 rounded-full bg-amber-400 px-1.5 text-xs font-semibold text-slate-900"
            data-testid="approvals-badge"
            title={`${approvals} proposal(s) you may approve`}
          >
            {approvals}
          </span>
        ) : null}
      </Link>
    </nav>
  );
}
