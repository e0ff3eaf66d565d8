import watchlist from "@/data/screening/sandbox-watchlist.json";

export type ScreeningResult = "CLEAR" | "CLOSE_MATCH" | "HIT";

export interface ScreeningSubject {
  firstName: string;
  lastName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

/** Sanctions / PEP / adverse-media screening. A real provider replaces the sandbox one behind this. */
export interface ScreeningProvider {
  screen(subject: ScreeningSubject): Promise<ScreeningResult>;
}

/** Lower case, no diacritics, single spaces: "José  Ñúñez" → "jose nunez". */
export function normaliseName(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** Sandbox provider: the watch list in data/screening; exact name HIT, edit distance ≤ 2 CLOSE_MATCH. */
export const sandboxScreening: ScreeningProvider = {
  async screen(subject) {
    const name = normaliseName(`${subject.firstName} ${subject.lastName}`);
    let result: ScreeningResult = "CLEAR";
    for (const entry of watchlist.entries) {
      const listed = normaliseName(`${entry.firstName} ${entry.lastName}`);
      if (listed === name) return "HIT";
      if (editDistance(listed, name) <= 2) result = "CLOSE_MATCH";
    }
    return result;
  },
};

export function screeningProvider(): ScreeningProvider {
  return sandboxScreening;
}
