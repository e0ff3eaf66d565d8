import { writeFile } from "node:fs/promises";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { generateSchemaSource, SCHEMA_FILE } from "./packages/client/scripts/generate";
await writeFile(SCHEMA_FILE, await generateSchemaSource(buildOpenApiDocument("http://localhost:3000")));
