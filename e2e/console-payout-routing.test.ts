import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, screenshot, TIMEOUT } from "./support/browser";
import { startOwnServer, type OwnServer } from "../test/support/own-server";

// The routed payout seen by an operator (a server of its own: PAYOUT_PROVIDER=routed): a funded
// payout waits for prefunding and the liquidity page shows the forecast with its alert; top-ups
// release it; the aggregator's sandbox times out (test destination 99901) and the payout fails
// over to the bank file; the transfer page lists both attempts.

type Support = typeof import("../test/integration/transfers/support");
type Api = typeof import("../test/integration/support");
type Console = typeof import("./support/console");

let server: OwnServer | undefined;
let browser: Browser;
let support: Support;
let api: Api;
let consoleUi: Console;

before(async () => {
  server = await startOwnServer({
    PAYOUT_PROVIDER: "routed",
    PAYOUT_BANKS: JSON.stringify([
      {
        id: "mxbank",
        name: "MX Payout Bank",
        bic: "BNMXMXMMXXX",
        debtorAccount: { scheme: "CLABE", id: "002010077777777771" },
        debtorName: "Remit Ltd",
        currencies: ["MXN"],
      },
    ]),
    // One operator records the top-ups here; dual control of them is tested on the database.
    DUAL_CONTROL_OFF: "prefunding.topUp",
  });
  process.env.TEST_BASE_URL = server.baseUrl;
  // Loaded now: the helpers read TEST_BASE_URL when first imported.
  support = await import("../test/integration/transfers/support");
  api = await import("../test/integration/support");
  consoleUi = await import("./support/console");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A valid CLABE whose account digits carry the sandbox aggregator's timeout marker. */
function timeoutClabe(): string {
  const body = "002010" + "99901" + Array.from({ length: 6 }, () => randomInt(10)).join("");
  const sum = [...body].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
  return body + String((10 - (sum % 10)) % 10);
}

async function topUp(page: Page, provider: string, amount: string) {
  await page.goto(consoleUi.consoleUrl("/liquidity"));
  await page.getByLabel("Provider", { exact: true }).fill(provider);
  await page.getByLabel("Currency").fill("MXN");
  await page.getByLabel("Amount").fill(amount);
  await page.getByLabel("Bank reference").fill(`E2E-${provider}-${randomInt(1e9)}`);
  await page.getByRole("button", { name: "Top up" }).click();
  await consoleUi.notice(page).waitFor();
  assert.match((await consoleUi.notice(page).textContent()) ?? "", /prefunding topped up by/);
}

describe("console: routed payouts", () => {
  test(
    "an operator sees the liquidity forecast with its alert, tops up, and sees the attempts of a payout that failed over",
    { timeout: TIMEOUT * 16 },
    async () => {
      const s = await support.registeredScenario({ fresh: true });
      await support.submitAndValidate(s, timeoutClabe());
      const device = await api.registerDevice(s.c);
      const confirmed = await api.confirmNow({ customer: s.c, device }, s.transferId);
      const done = await api.completeFunding(s.c, confirmed.fundingSession.fundingSessionId);
      assert.equal(done.status, 200, done.text);

      const page = await consoleUi.signedInPage(browser);
      // No prefunding yet: the payout is held and the page says so.
      const alert = page.getByTestId("liquidity-alert");
      await api.eventually(
        async () => {
          await page.goto(consoleUi.consoleUrl("/liquidity"));
          return (await alert.count()) > 0 && /aggregator MXN/.test((await alert.textContent()) ?? "") ? true : null;
        },
        TIMEOUT,
        "the liquidity alert for the held payout",
      );
      const row = page.getByTestId("liquidity-aggregator-MXN");
      assert.match((await row.textContent()) ?? "", /LOW/);
      assert.match((await row.textContent()) ?? "", /1 ·/);
      await screenshot(page, "liquidity-alert");

      // Top-ups release it: the aggregator times out and the bank file takes it.
      await topUp(page, "aggregator", "500000.00");
      await topUp(page, "bank-file", "500000.00");
      await page.goto(consoleUi.consoleUrl(`/transfers/${s.transferId}`));
      const tries = page.getByTestId("provider-attempts");
      await api.eventually(
        async () => {
          await page.goto(consoleUi.consoleUrl(`/transfers/${s.transferId}`));
          return (await page.getByTestId("provider-attempt-2").count()) > 0 &&
            /SUBMITTED/.test((await page.getByTestId("provider-attempt-2").textContent()) ?? "")
            ? true
            : null;
        },
        TIMEOUT * 4,
        "the bank file's attempt after the failover",
      );
      const first = (await page.getByTestId("provider-attempt-1").textContent()) ?? "";
      assert.match(first, /aggregator/);
      assert.match(first, /FAILED/);
      assert.match(first, /TIMEOUT/);
      const second = (await page.getByTestId("provider-attempt-2").textContent()) ?? "";
      assert.match(second, /bank-file/);
      assert.match(second, /pof_/);
      assert.equal(await tries.locator("tbody tr").count(), 2);
      await screenshot(page, "payout-failover-attempts");

      // The cover is back: the alert is gone.
      await page.goto(consoleUi.consoleUrl("/liquidity"));
      await page.getByTestId("liquidity-forecast").waitFor();
      assert.equal(await page.getByTestId("liquidity-alert").count(), 0);
      await page.context().close();
    },
  );
});
