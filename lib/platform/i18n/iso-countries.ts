// i18n-iso-countries with the service's languages only. Its Node entry registers all of its 80
// languages on import, and Turbopack copies whatever a route handler imports into that route's own
// chunk: those names (non-Latin-1 text, so the whole chunk source is held as two-byte strings)
// cost about a megabyte per loaded route (docs/memory.md). Import countries from here.
// Default import: the package is CommonJS, whose named exports native ESM cannot see.
import countries from "i18n-iso-countries/index.js";
import en from "i18n-iso-countries/langs/en.json";
import es from "i18n-iso-countries/langs/es.json";
import fr from "i18n-iso-countries/langs/fr.json";

// The names of lib/platform/i18n/language.ts LANGUAGES; "en" is also what OFAC's country names are read in.
for (const locale of [en, es, fr]) countries.registerLocale(locale);

export default countries;
