import type { ReactNode } from "react";
import { Badge, Card, Flash, PageTitle, danger, input, param, primary, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { when } from "@/lib/operations/console/format";
import { partnersMonitoring } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { config } from "@/lib/platform/config";
import type { RuleSetRow } from "@/lib/compliance/monitoring/evaluate";
import { precisionOf, QUALITY_DAYS, ruleQuality, type TypologyQuality } from "@/lib/compliance/monitoring/quality";
import { listRuleSets } from "@/lib/compliance/monitoring/rule-sets";
import { activeSnoozes } from "@/lib/compliance/monitoring/settings";
import { ready } from "@/lib/platform/ready";
import { activate, backtest, createDraft, moveRuleSet, saveDraft, setPartnerMode, snooze } from "./actions";

export const metadata = { title: "Monitoring · Console" };

const BACK = "/console/monitoring";

function Hidden({ values }: { values: Record<string, string> }) {
  return (
    <>
      <input type="hidden" name="back" value={BACK} />
      {Object.entries(values).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
    </>
  );
}

function Button({
  action,
  values,
  children,
  tone = primary,
}: {
  action: (f: FormData) => Promise<void>;
  values: Record<string, string>;
  children: ReactNode;
  tone?: string;
}) {
  return (
    <form action={action} className="inline">
      <Hidden values={values} />
      <button className={tone} type="submit">
        {children}
      </button>
    </form>
  );
}

function RuleSetCard({ set, operatorId }: { set: RuleSetRow; operatorId: string }) {
  const b = set.backtest;
  const id = { ruleSetId: set.id };
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2" data-testid={`rule-set-${set.version}`}>
          Version {set.version} <Badge>{set.state}</Badge> {set.document.name}
        </span>
      }
    >
      <p className="text-sm text-slate-700">
        By {set.authorEmail} on {when(set.createdAt)}: {set.note}
        {set.activatedAt ? ` · activated by ${set.activatedByEmail} on ${when(set.activatedAt)}` : ""}
        {set.retiredAt ? ` · retired ${when(set.retiredAt)}` : ""}
      </p>
      <p className="mt-1 text-sm">
        {set.document.rules.length} rules, {set.document.typologies.length} typologies:{" "}
        {set.document.typologies.map((t) => `${t.id} (review ${t.review}${t.block !== undefined ? `, block ${t.block}` : ""})`).join(", ")}
      </p>
      {b ? (
        <div className="mt-2 text-sm" data-testid="backtest">
          Backtest {when(new Date(b.ranAt))} over {b.transfers} transfers since {when(new Date(b.from))}: would hold <strong>{b.wouldHold}</strong>, of which
          the live set held {b.liveHeld}. By rule:{" "}
          {Object.entries(b.byRule)
            .map(([r, n]) => `${r} ${n}`)
            .join(", ") || "none fired"}
          .
          {b.byTypology ? (
            <ul className="list-disc pl-6" data-testid="backtest-typologies">
              {Object.entries(b.byTypology)
                .filter(([, n]) => n.held > 0)
                .map(([typology, n]) => (
                  <li key={typology}>
                    {typology}: would hold {n.held}; judged by closed cases {n.confirmed} risk confirmed, {n.falsePositive} false positive; precision{" "}
                    {precisionOf(n.confirmed, n.falsePositive) ?? "none judged"}
                  </li>
                ))}
            </ul>
          ) : null}
          {b.differences.length > 0 ? (
            <ul className="list-disc pl-6">
              {b.differences.map((d) => (
                <li key={d.transferId}>
                  <a className="font-mono text-blue-700 underline" href={`/console/transfers/${d.transferId}`}>
                    {d.transferId}
                  </a>{" "}
                  draft {d.draft}, live {d.live}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer">Document</summary>
        {set.state === "draft" && set.authorId === operatorId ? (
          <form action={saveDraft} className="mt-2 flex flex-col gap-2">
            <Hidden values={id} />
            <textarea className={`${input} font-mono`} name="document" rows={20} defaultValue={JSON.stringify(set.document, null, 2)} />
            <input className={input} name="note" defaultValue={set.note} aria-label="Note" />
            <button className={primary} type="submit">
              Save draft
            </button>
          </form>
        ) : (
          <pre className="mt-2 max-h-96 overflow-auto bg-slate-50 p-2 text-xs">{JSON.stringify(set.document, null, 2)}</pre>
        )}
      </details>
      <div className="mt-3 flex flex-wrap gap-2">
        {set.state === "draft" ? (
          <Button action={moveRuleSet} values={{ ...id, move: "propose" }}>
            Propose
          </Button>
        ) : null}
        {["draft", "proposed", "shadowing"].includes(set.state) ? (
          <Button action={backtest} values={id}>
            Backtest (30 days)
          </Button>
        ) : null}
        {set.state === "proposed" ? (
          <Button action={moveRuleSet} values={{ ...id, move: "shadow" }}>
            Run in shadow
          </Button>
        ) : null}
        {["proposed", "shadowing"].includes(set.state) ? (
          <Button action={activate} values={id}>
            Activate
          </Button>
        ) : null}
        {["draft", "proposed", "shadowing"].includes(set.state) ? (
          <Button action={moveRuleSet} values={{ ...id, move: "withdraw" }} tone={danger}>
            Withdraw
          </Button>
        ) : null}
      </div>
    </Card>
  );
}

function RuleQuality({ rows }: { rows: TypologyQuality[] }) {
  return (
    <Card title={`Rule quality (last ${QUALITY_DAYS} days)`}>
      <p className="mb-2 text-sm text-slate-700">
        Per typology: the alerts it raised, and of those whose case was closed, how many as risk confirmed and how many as false positives. Precision is
        confirmed over closed; alerts still in an open case are not counted either way.
      </p>
      {rows.length === 0 ? (
        <p className="text-sm">No typology raised an alert in the last {QUALITY_DAYS} days.</p>
      ) : (
        <table className="w-full text-sm" data-testid="rule-quality">
          <thead>
            <tr className="text-left">
              <th className="p-1">Typology</th>
              <th className="p-1">Alerts</th>
              <th className="p-1">Risk confirmed</th>
              <th className="p-1">False positive</th>
              <th className="p-1">Precision</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.typology} className="border-t" data-testid={`rule-quality-${r.typology}`}>
                <td className="p-1 font-mono">{r.typology}</td>
                <td className="p-1">{r.alerts}</td>
                <td className="p-1">{r.confirmed}</td>
                <td className="p-1">{r.falsePositive}</td>
                <td className="p-1">{r.precision ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

export default async function Monitoring({ searchParams }: { searchParams: SearchParams }) {
  const operator = await requireOperator("admin");
  const sp = await searchParams;
  const db = await ready();
  const [sets, partnerRows, snoozes, quality] = await Promise.all([listRuleSets(db), partnersMonitoring(db), activeSnoozes(db), ruleQuality(db, clock.now())]);
  const live = sets.find((s) => s.state === "active");
  return (
    <>
      <PageTitle sub="Transaction monitoring at the fast-check: the live rule set, drafts and their backtests, shadow runs, activation by a second operator, each partner's mode and parameters, and per-customer snoozes. Nothing here reaches partners.">
        Monitoring
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="New draft">
        <form action={createDraft} className="flex flex-col gap-2">
          <Hidden values={{}} />
          <label className="text-sm" htmlFor="new-document">
            Rule set document (JSON; starts from the live version {live?.version})
          </label>
          <textarea
            id="new-document"
            className={`${input} font-mono`}
            name="document"
            rows={12}
            defaultValue={live ? JSON.stringify(live.document, null, 2) : ""}
          />
          <input className={input} name="note" placeholder="Why this version" aria-label="Note" />
          <button className={primary} type="submit">
            Save as draft
          </button>
        </form>
      </Card>
      <RuleQuality rows={quality} />
      <h2 className="mb-2 mt-6 text-lg font-semibold">Rule sets</h2>
      {sets.map((s) => (
        <RuleSetCard key={s.id} set={s} operatorId={operator.id} />
      ))}
      <Card title="Partners">
        <p className="mb-2 text-sm text-slate-700">
          Default mode: <Badge>{config().MONITORING_DEFAULT_MODE}</Badge> (MONITORING_DEFAULT_MODE). Parameters: one name=value per line, overriding the live
          set&apos;s.
        </p>
        <table className="w-full text-sm">
          <tbody>
            {partnerRows.map((p) => (
              <tr key={p.id} className="border-t align-top">
                <td className="p-1">
                  {p.name}
                  <div className="font-mono text-xs">{p.id}</div>
                </td>
                <td className="p-1">
                  <form action={setPartnerMode} className="flex flex-wrap items-start gap-2" data-testid={`partner-monitoring-${p.id}`}>
                    <Hidden values={{ partnerId: p.id }} />
                    <select className={input} name="mode" defaultValue={p.mode ?? "default"} aria-label="Mode">
                      <option value="default">default</option>
                      <option value="enforce">enforce</option>
                      <option value="shadow">shadow</option>
                    </select>
                    <textarea
                      className={`${input} font-mono`}
                      name="parameters"
                      rows={2}
                      aria-label="Parameters"
                      defaultValue={Object.entries(p.parameters)
                        .map(([k, v]) => `${k}=${v}`)
                        .join("\n")}
                    />
                    <button className={primary} type="submit">
                      Save
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Snoozes">
        <form action={snooze} className="mb-3 flex flex-wrap items-center gap-2">
          <Hidden values={{}} />
          <input className={input} name="customerId" placeholder="Customer id (cus_...)" aria-label="Customer" />
          <select className={input} name="ruleId" aria-label="Rule">
            {(live?.document.rules ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.id}
              </option>
            ))}
          </select>
          <input className={input} name="days" type="number" min={1} max={90} defaultValue={30} aria-label="Days" />
          <input className={input} name="reason" placeholder="Reason" aria-label="Reason" />
          <button className={primary} type="submit">
            Snooze
          </button>
        </form>
        <ul className="text-sm" data-testid="snoozes">
          {snoozes.map((s) => (
            <li key={s.id}>
              <span className="font-mono">{s.customerId}</span> · {s.ruleId} until {when(s.expiresAt)} · {s.reason} ({s.createdByEmail})
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
