/** How many line rows the manual journal form offers (the action reads account0..account3 and so on). */
export const JOURNAL_FORM_LINES = 4;
