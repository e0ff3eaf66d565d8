import { danger, input, primary } from "./ui";

export interface Decision {
  name: string;
  value: string;
  label: string;
  tone?: "primary" | "danger";
}

/** A queue decision: hidden ids, a required reason, one button per outcome. */
export function DecisionForm({
  action,
  hidden,
  back,
  placeholder,
  decisions,
}: {
  action: (formData: FormData) => Promise<void>;
  hidden: Record<string, string>;
  back: string;
  placeholder: string;
  decisions: Decision[];
}) {
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="back" value={back} />
      <label className="text-sm">
        Reason <input name="reason" required minLength={3} className={input} placeholder={placeholder} />
      </label>
      {decisions.map((d) => (
        <button key={d.value} name={d.name} value={d.value} className={d.tone === "danger" ? danger : primary}>
          {d.label}
        </button>
      ))}
    </form>
  );
}
