/**
 * Imported first by the command-line scripts (import scripts, scripts/check-config.ts): loading
 * it checks the configuration and ends the process on a refusal, before the script does anything.
 */
import { configOrExit } from "./refusal";

configOrExit();
