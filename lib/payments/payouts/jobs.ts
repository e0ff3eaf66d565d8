import { constants } from "node:fs";
import { access, mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { payoutFiles } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { defineJob } from "@/lib/platform/jobs/define";
import { logger } from "@/lib/platform/log";
import { providers } from "@/lib/payments/providers";
import { generatePayoutFiles, readPayoutFile } from "./generate";

/**
 * Every PAYOUT_BATCH_MINUTES, with PAYOUT_PROVIDER=pain001: the transfers ready for payout go
 * into files (one transaction with their move to topay). Other providers: nothing to do.
 */
export const generatePayoutFilesJob = defineJob({
  kind: "payouts.generateFiles",
  get every() {
    return Math.round(config().PAYOUT_BATCH_MINUTES * 60);
  },
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  run: async (tx, { now }) => {
    if (providers().payout !== "pain001") return;
    await generatePayoutFiles(tx, { now });
  },
});

async function exists(file: string): Promise<boolean> {
  return access(file, constants.F_OK).then(
    () => true,
    () => false,
  );
}

/**
 * Writes a committed file to PAYOUT_OUTBOX_DIR (outside any transaction), then marks it written.
 * A retry after a crash between the two finds the file there and only marks it; the bank's
 * pickup sees complete files only (written under a temporary name, then renamed).
 */
export const writePayoutFileJob = defineJob({
  kind: "payouts.writeFile",
  schema: z.object({ payoutFileId: z.string() }),
  perform: async (db, { payload, now }) => {
    const dir = config().PAYOUT_OUTBOX_DIR;
    const file = await readPayoutFile(db, payload.payoutFileId);
    if (!dir || !file || file.row.writtenAt) return;
    const target = path.join(dir, file.row.fileName);
    if (!(await exists(target))) {
      await mkdir(dir, { recursive: true });
      const temporary = `${target}.part`;
      await writeFile(temporary, file.xml, { encoding: "utf8", mode: 0o600 });
      await rename(temporary, target);
    }
    await db.update(payoutFiles).set({ writtenAt: now }).where(eq(payoutFiles.id, file.row.id));
    logger().info({ payoutFileId: file.row.id, fileName: file.row.fileName }, "payout file written to the outbox");
  },
});
