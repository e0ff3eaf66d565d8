import { writeFile } from "node:fs/promises";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { generateSchemaSource, SCHEMA_FILE } from "./packages/client/scripts/generate";
const doc = buildOpenApiDocument(process.argv[2] ?? "http://localhost:3000");
await writeFile(SCHEMA_FILE, await generateSchemaSource(doc));
