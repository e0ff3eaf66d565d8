import type { Executor } from "@/db";
import { config } from "@/lib/platform/config";
import { RetryLater } from "@/lib/platform/jobs/define";
import { chooseProvider } from "@/lib/platform/providers/choose";
import { listIndex } from "./list-index";
import type { MatchIndex } from "./match-index";
import { screenAgainst, screeningThresholds, type ScreeningProvider } from "./provider";
import { PEP_LISTS } from "./sources";

/**
 * PEP screening: a customer's name against the lists of politically exposed persons, through the
 * same provider interface as sanctions screening (ScreeningProvider) and the same matcher
 * (match-index.ts, with the configured thresholds): one name-matching rule for every list. The PEP
 * list is stored like the sanctions lists (list-store.ts, list "opensanctions-peps"); until its
 * first version is stored, screening waits (it never reports CLEAR against a list it has not read).
 * A match does not block: lib/compliance/cases/pep.ts turns it into a PEP flag and a case.
 */
export const pepListScreening: ScreeningProvider = {
  async screen(subject, db: Executor) {
    const indexes = await Promise.all(PEP_LISTS.map((list) => listIndex(db, list)));
    const missing = PEP_LISTS.filter((_, i) => !indexes[i]);
    if (missing.length) throw new RetryLater(1, `the PEP lists are not loaded yet (${missing.join(", ")})`);
    return screenAgainst(indexes as MatchIndex[], subject, screeningThresholds());
  },
};

/**
 * The configured PEP provider (PEP_SCREENING_PROVIDER). Both read the list the refresh job stored:
 * "opensanctions" from PEP_SOURCE_URLS, "sandbox" from the shipped fixture of made-up people, which
 * production can never choose (chooseProvider hands production only its real implementations).
 */
export function pepScreeningProvider(): ScreeningProvider {
  const c = config();
  return chooseProvider("pep", c.providers.pep, c.sandbox, { opensanctions: pepListScreening }, { sandbox: pepListScreening });
}
