import Link from "next/link";
import { Badge, Card, Flash, PageTitle, input, param, primary, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import {
  calendarText,
  diffDocuments,
  fundingTexts,
  payoutBanksText,
  OPTIONAL_PRICE_FIELDS,
  optionalPriceText,
  PRICE_FIELDS,
  TIER_LIMIT_FIELDS,
  tierLimitTexts,
} from "@/lib/payments/corridors/changes";
import { LIMIT_WINDOWS, VERIFICATION_TIERS } from "@/lib/payments/limits/tiers";
import { fundingMethodsOf } from "@/lib/payments/corridors/corridors";
import { bankTransferBusinessDays, cardWindowSeconds, collectionAccountsAt } from "@/lib/payments/corridors/funding-terms";
import { latestTable, listVersions, refreshVersions, storedVersion, tableInForce, type VersionRow } from "@/lib/payments/corridors/versions";
import { openProposalFor } from "@/lib/operations/dual-control/open-proposal";
import { ready } from "@/lib/platform/ready";
import { CalendarsForm, FundingForm, ImportForm, PayoutBanksForm, PriceForm, TierLimitsForm } from "./forms";
import { payoutBanksAt } from "@/lib/payments/payouts/banks";

export const metadata = { title: "Configuration · Console" };

/** "2026-11-29T03:00": a datetime-local value in UTC, an hour from now (a change is not meant to apply at once). */
function inAnHour(now: Date): string {
  return new Date(now.getTime() + 3_600_000).toISOString().slice(0, 16);
}

/** A corridor field as the document writes it ("10.00"), for the form's starting values. */
function writtenAs(document: Record<string, unknown> | undefined, code: string, field: string): string | undefined {
  const value = corridorOf(document, code)?.[field];
  return typeof value === "string" ? value : undefined;
}

function corridorOf(document: Record<string, unknown> | undefined, code: string): Record<string, unknown> | undefined {
  const corridors = Array.isArray(document?.corridors) ? (document.corridors as Record<string, unknown>[]) : [];
  return corridors.find((c) => c.code === code);
}

function status(row: VersionRow, inForce: number, now: Date): string {
  if (row.version === inForce) return "in force";
  if (row.effectiveAt.getTime() > now.getTime()) return row.version > inForce ? "scheduled" : "superseded";
  return "superseded";
}

/** The fields that differ between two versions (the diff's table). */
function Diff({ rows, from, to }: { rows: VersionRow[]; from: number; to: number }) {
  const a = rows.find((r) => r.version === from);
  const b = rows.find((r) => r.version === to);
  if (!a || !b) return <p className="text-sm">Choose two versions.</p>;
  const changes = diffDocuments(a.document, b.document);
  return changes.length === 0 ? (
    <p className="text-sm" data-testid="diff-none">
      Versions {from} and {to} are the same.
    </p>
  ) : (
    <table className="mt-2 w-full text-sm" data-testid="diff">
      <thead>
        <tr className="text-left text-slate-500">
          <th className="p-1">Field</th>
          <th className="p-1">Version {from}</th>
          <th className="p-1">Version {to}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.field} className="border-t align-top" data-testid={`diff-${c.field}`}>
            <td className="p-1 font-mono text-xs">{c.field}</td>
            <td className="break-all p-1 font-mono text-xs">{c.before ?? "—"}</td>
            <td className="break-all bg-amber-50 p-1 font-mono text-xs font-semibold">{c.after ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The business configuration as versioned data: corridors and their prices in force, the versions
 * scheduled and past, the difference between two, a new price or an imported version proposed for
 * a second admin's approval, and each version's export. Nothing changes until another admin approves.
 */
export default async function Configuration({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const db = await ready();
  const now = clock.now();
  await refreshVersions(db);
  const [rows, waiting] = await Promise.all([
    listVersions(db),
    openProposalFor(db, "configuration.version.publish", { type: "configuration", id: "corridors" }),
  ]);
  const inForce = tableInForce(now);
  const latest = latestTable();
  const latestDocument = storedVersion(latest.version)?.document;
  const from = Number(param(sp, "from") ?? Math.max(1, latest.version - 1));
  const to = Number(param(sp, "to") ?? latest.version);
  return (
    <>
      <PageTitle sub="Corridors, prices, tier limits, funding terms, business-day calendars and payout banks as versioned data: every change is a new version from an effective time, proposed by one admin and approved by another; quotes record the version they were priced under.">
        Configuration
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card
        title={
          <span data-testid="version-in-force">
            Version {inForce.version} in force since {when(inForce.effectiveAt)}
          </span>
        }
      >
        {latest.version !== inForce.version ? (
          <p className="mb-2 text-sm" data-testid="version-scheduled">
            Version {latest.version} takes effect on {when(latest.effectiveAt)}.
          </p>
        ) : null}
        {waiting ? (
          <p className="mb-2 text-sm" data-testid="version-proposed">
            Waiting for approval:{" "}
            <Link className="text-blue-700 underline" href={`/console/approvals/${waiting.id}`}>
              {waiting.summary}
            </Link>{" "}
            (proposed by {waiting.proposedByEmail}).
          </p>
        ) : null}
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Corridor</th>
              <th className="p-1">Methods</th>
              <th className="p-1">Funding</th>
              <th className="p-1">Principal fee</th>
              <th className="p-1">Fee bands</th>
              <th className="p-1">Minimum</th>
              <th className="p-1">Maximum</th>
              <th className="p-1">FX margin</th>
              <th className="p-1">Partner fee cap</th>
              <th className="p-1">FX tolerance</th>
              <th className="p-1">Review from</th>
              <th className="p-1">Bank account</th>
            </tr>
          </thead>
          <tbody>
            {inForce.corridors.map((c) => (
              <tr key={c.code} className="border-t" data-testid={`in-force-${c.code}`}>
                <td className="p-1 font-mono">
                  {c.code} {c.originCurrency}→{c.destinationCurrency}
                </td>
                <td className="p-1">{c.payoutMethods.join(", ")}</td>
                <td className="p-1" data-testid={`funding-methods-${c.code}`}>
                  {fundingMethodsOf(c).join(", ")}
                </td>
                <td className="p-1">
                  {c.principalFee.toFixed(2)} {c.originCurrency}
                </td>
                <td className="p-1" data-testid={`fee-bands-${c.code}`}>
                  {c.principalFeeBands?.map((b) => `from ${b.fromOriginAmount.toFixed(2)}: ${b.fee.toFixed(2)}`).join(", ") ?? "—"}
                </td>
                <td className="p-1">{c.minimumOriginAmount.toFixed(2)}</td>
                <td className="p-1">{c.maximumOriginAmount?.toFixed(2) ?? "—"}</td>
                <td className="p-1" data-testid={`fx-margin-${c.code}`}>
                  {c.fxMargin?.toFixed() ?? "0"}
                  {Object.entries(c.partnerFxMargins ?? {}).map(([partner, margin]) => (
                    <span key={partner} className="block text-xs text-slate-500">
                      {partner}: {margin.toFixed()}
                    </span>
                  ))}
                </td>
                <td className="p-1">{c.partnerFeeCap.toFixed(2)}</td>
                <td className="p-1">{c.fxTolerance.toFixed()}</td>
                <td className="p-1">{c.reviewThreshold.toFixed(2)}</td>
                <td className="p-1">{c.bankAccount.format}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3 className="mt-4 text-sm font-semibold">Limits by verification tier (partners without their own; in the partner&apos;s limit currency)</h3>
        <table className="w-fit text-sm" data-testid="tier-limits-in-force">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Tier</th>
              {LIMIT_WINDOWS.map((w) => (
                <th key={w} className="p-1">
                  {w}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {VERIFICATION_TIERS.map((t) => (
              <tr key={t} className="border-t" data-testid={`tier-limits-${t}`}>
                <td className="p-1">{t}</td>
                {LIMIT_WINDOWS.map((w) => (
                  <td key={w} className="p-1">
                    {inForce.tierLimits[`${t}`][w]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <h3 className="mt-4 text-sm font-semibold">Funding (from the settings where the version sets none)</h3>
        <ul className="text-sm" data-testid="funding-in-force">
          <li data-testid="funding-window-card">
            Card: {cardWindowSeconds(now) / 60} minutes{inForce.funding?.windows?.CARD ? "" : " (setting)"}
          </li>
          <li data-testid="funding-window-bank-transfer">
            Bank transfer: {bankTransferBusinessDays(now)} business days of its collection account&apos;s calendar
            {inForce.funding?.windows?.BANK_TRANSFER ? "" : " (setting)"}
          </li>
          {collectionAccountsAt(now).map((a) => (
            <li key={a.iban} data-testid={`collection-account-${a.iban}`}>
              Collects {a.currencies.join(", ")} into <span className="font-mono">{a.iban}</span> ({a.bic}, {a.name}, {a.timeZone})
              {inForce.funding?.collectionAccounts ? "" : " (setting)"}
            </li>
          ))}
        </ul>
        <h3 className="mt-4 text-sm font-semibold">Business days (the holiday table, changed here)</h3>
        <ul className="text-sm" data-testid="calendars-in-force">
          {Object.entries(inForce.calendars ?? {}).length === 0 ? <li>No changes: weekends and the public and bank holidays of each country.</li> : null}
          {Object.entries(inForce.calendars ?? {}).map(([country, c]) => (
            <li key={country} data-testid={`calendar-${country}`}>
              {country}: {c.closed ? `closed ${c.closed.join(", ")}` : ""}
              {c.closed && c.open ? "; " : ""}
              {c.open ? `open ${c.open.join(", ")}` : ""}
            </li>
          ))}
        </ul>
        <h3 className="mt-4 text-sm font-semibold">Payout banks (pain.001 files){inForce.payoutBanks ? "" : " (setting)"}</h3>
        <ul className="text-sm" data-testid="payout-banks-in-force">
          {payoutBanksAt(now).map((b) => (
            <li key={b.id} data-testid={`payout-bank-${b.id}`}>
              {b.id}: {b.name} ({b.bic}) pays out {b.currencies.join(", ")} from{" "}
              <span className="font-mono">{b.debtorIban ?? `${b.debtorAccount?.scheme} ${b.debtorAccount?.id}`}</span>
            </li>
          ))}
        </ul>
      </Card>
      <Card title={`Propose new tier limits (on version ${latest.version})`}>
        <TierLimitsForm
          values={Object.fromEntries(TIER_LIMIT_FIELDS.map((f) => [f, tierLimitTexts({ tierLimits: latest.tierLimits })[f] ?? ""]))}
          suggestedAt={inAnHour(now)}
        />
      </Card>
      <Card title={`Propose new funding terms (on version ${latest.version})`}>
        <FundingForm values={fundingTexts(latestDocument)} suggestedAt={inAnHour(now)} />
      </Card>
      <Card title={`Propose calendar changes (on version ${latest.version})`}>
        <CalendarsForm value={calendarText(latestDocument)} suggestedAt={inAnHour(now)} />
      </Card>
      <Card title={`Propose payout banks (on version ${latest.version})`}>
        <PayoutBanksForm value={payoutBanksText(latestDocument)} suggestedAt={inAnHour(now)} />
      </Card>
      <Card title={`Propose new prices (on version ${latest.version})`}>
        {latest.corridors.map((c) => (
          <details key={c.code} className="border-t py-2" data-testid={`propose-${c.code}`}>
            <summary className="cursor-pointer text-sm font-semibold">
              {c.code} {c.originCurrency}→{c.destinationCurrency}
            </summary>
            <PriceForm
              code={c.code}
              values={{
                ...Object.fromEntries(PRICE_FIELDS.map((f) => [f, writtenAs(latestDocument, c.code, f) ?? c[f].toFixed()])),
                ...Object.fromEntries(OPTIONAL_PRICE_FIELDS.map((f) => [f, optionalPriceText(corridorOf(latestDocument, c.code), f)])),
              }}
              suggestedAt={inAnHour(now)}
            />
          </details>
        ))}
      </Card>
      <Card title="History">
        <table className="w-full text-sm" data-testid="versions">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Version</th>
              <th className="p-1">Effective from</th>
              <th className="p-1">Why</th>
              <th className="p-1">Proposed / approved by</th>
              <th className="p-1">Export</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.version} className="border-t align-top" data-testid={`version-${r.version}`}>
                <td className="p-1">
                  {r.version} <Badge>{status(r, inForce.version, now)}</Badge>
                </td>
                <td className="p-1">{when(r.effectiveAt)}</td>
                <td className="p-1">{r.note}</td>
                <td className="p-1">
                  {r.proposedByEmail} / {r.approvedByEmail}
                  {r.proposalId ? (
                    <>
                      {" "}
                      (
                      <Link className="text-blue-700 underline" href={`/console/approvals/${r.proposalId}`}>
                        {r.proposalId}
                      </Link>
                      )
                    </>
                  ) : null}
                </td>
                <td className="p-1">
                  <a className="text-blue-700 underline" href={`/console/configuration/${r.version}/export`}>
                    JSON
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Difference between two versions">
        <form method="get" className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col text-sm">
            From
            <select className={input} name="from" defaultValue={String(from)}>
              {rows.map((r) => (
                <option key={r.version} value={r.version}>
                  {r.version}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-sm">
            To
            <select className={input} name="to" defaultValue={String(to)}>
              {rows.map((r) => (
                <option key={r.version} value={r.version}>
                  {r.version}
                </option>
              ))}
            </select>
          </label>
          <button className={primary} type="submit">
            Compare
          </button>
        </form>
        <Diff rows={rows} from={from} to={to} />
      </Card>
      <Card title="Import a version">
        <ImportForm suggestedAt={inAnHour(now)} />
      </Card>
    </>
  );
}
