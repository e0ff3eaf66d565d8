import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { putPartner } from "./quotes";

export interface Delivery {
  rawBody: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * A local HTTP endpoint recording every webhook delivery (raw body for signature checks, parsed
 * body for assertions) into `deliveries`. Answers 204 to each.
 */
export async function startWebhookReceiver(deliveries: Delivery[] = []): Promise<{ url: string; deliveries: Delivery[]; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = null;
      }
      deliveries.push({ rawBody, headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    close: async () => {
      // The service keeps delivery connections alive: drop them, or close() would wait for them.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A receiver the sandbox partner's webhooks point at, with the partner's signing secret; `close`
 * points them back at the previous URL.
 */
export async function receivePartnerWebhooks(deliveries: Delivery[] = []) {
  const receiver = await startWebhookReceiver(deliveries);
  const previousUrl = (await putPartner({})).webhookUrl;
  const settings = await putPartner({ webhookUrl: receiver.url });
  assert.ok(settings.webhookSecret);
  const close = async () => {
    await putPartner({ webhookUrl: previousUrl });
    await receiver.close();
  };
  return { ...receiver, secret: settings.webhookSecret, close };
}
