/**
 * The European Economic Area (EU 27, Iceland, Liechtenstein, Norway), alpha-2: a transfer from one
 * of them discloses its currency conversion charge over the ECB reference rate (Regulation (EU)
 * 2019/518, article 3a). A fixed list: it changes by treaty, not by data feed.
 */
export const EEA_COUNTRIES: ReadonlySet<string> = new Set([
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  "IS",
  "LI",
  "NO",
]);
