import countries from "@/lib/platform/i18n/iso-countries";

/**
 * Facts in the Remarks column of sdn.csv ("DOB 15 Jan 1960; POB ...; nationality Syria;
 * citizen Iran; ..."): dates of birth and nationalities, as the matcher compares them.
 */
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

// OFAC's spellings that i18n-iso-countries does not know.
const OFAC_COUNTRIES: Record<string, string> = {
  "korea, north": "PRK",
  "korea, south": "KOR",
  burma: "MMR",
  syria: "SYR",
  "cabo verde": "CPV",
  palestinian: "PSE",
  "congo, democratic republic of the": "COD",
  "congo, republic of the": "COG",
  "west bank": "PSE",
  gaza: "PSE",
  "bosnia and herzegovina": "BIH",
  "cote d ivoire": "CIV",
  "cote d'ivoire": "CIV",
  kosovo: "XKX",
  "the bahamas": "BHS",
  "the gambia": "GMB",
  "timor-leste": "TLS",
  "macedonia, the former yugoslav republic of": "MKD",
  "north macedonia, the republic of": "MKD",
  "region: crimea": "UKR",
  "region: gaza": "PSE",
  "region: kurdistan": "IRQ",
  "region: northern mali": "MLI",
  "virgin islands, british": "VGB",
};

// getAlpha3Code scans every name: a few hundred distinct spellings, looked up thousands of times.
const known = new Map<string, string | null>();

/** ISO alpha-3 code of an OFAC country name, or null when unknown. */
export function countryCode(name: string): string | null {
  const clean = name.trim().replace(/\.$/, "");
  if (!clean) return null;
  if (!known.has(clean)) known.set(clean, OFAC_COUNTRIES[clean.toLowerCase()] ?? countries.getAlpha3Code(clean, "en") ?? null);
  return known.get(clean)!;
}

function dateOf(text: string): string | null {
  const t = text.trim().replace(/^circa\s+/i, "");
  let m = /^(\d{1,2}) ([A-Za-z]{3}) (\d{4})$/.exec(t);
  if (m) {
    const month = MONTHS.indexOf(m[2].toLowerCase()) + 1;
    return month ? `${m[3]}-${String(month).padStart(2, "0")}-${m[1].padStart(2, "0")}` : null;
  }
  m = /^([A-Za-z]{3}) (\d{4})$/.exec(t);
  if (m) {
    const month = MONTHS.indexOf(m[1].toLowerCase()) + 1;
    return month ? `${m[2]}-${String(month).padStart(2, "0")}` : null;
  }
  m = /^(\d{4})$/.exec(t);
  return m ? m[1] : null;
}

/** A published DOB: "15 Jan 1960", "Jan 1960", "1960", "circa 1960", "1958 to 1962", "01 Jan 1958 to 31 Dec 1962". */
export function parseDateOfBirth(text: string): string | null {
  const range = /^(.+?) to (.+)$/.exec(text.trim());
  if (range) {
    const from = dateOf(range[1]);
    const to = dateOf(range[2]);
    return from && to ? `${from.slice(0, 4)}/${to.slice(0, 4)}` : null;
  }
  return dateOf(text);
}

/** Dates of birth and nationalities (nationality, citizen) found in one Remarks value. */
export function parseRemarks(remarks: string | null): { datesOfBirth: string[]; nationalities: string[] } {
  const datesOfBirth = new Set<string>();
  const nationalities = new Set<string>();
  for (const part of (remarks ?? "").split(";")) {
    const p = part.trim();
    const dob = /^(?:alt\. )?DOB (.+?)\.?$/.exec(p);
    if (dob) {
      const d = parseDateOfBirth(dob[1]);
      if (d) datesOfBirth.add(d);
      continue;
    }
    const nat = /^(?:alt\. )?(?:nationality|citizen) (.+?)\.?$/.exec(p);
    if (nat) {
      const code = countryCode(nat[1]);
      if (code) nationalities.add(code);
    }
  }
  return { datesOfBirth: [...datesOfBirth], nationalities: [...nationalities] };
}
