import { config, ConfigurationError, type Config } from "./index";

/**
 * What a process does with a refused configuration: it prints one line per
 * problem on stderr and exits before serving or running anything, so a supervisor sees a dead
 * process, not a live one answering 500. Exit code 78 is EX_CONFIG (sysexits.h): systemd's
 * RestartPreventExitStatus=78 stops restarting a process that cannot start as configured.
 */
export const EX_CONFIG = 78;

/** Prints the lines ("refused configuration: SETTING: why", one each) and exits with EX_CONFIG. */
export function exitRefused(lines: readonly string[]): never {
  for (const line of lines) process.stderr.write(`refused configuration: ${line}\n`);
  process.exit(EX_CONFIG);
}

/** The process configuration, or (refused) its lines printed and the process ended. */
export function configOrExit(): Config {
  try {
    return config();
  } catch (e) {
    if (e instanceof ConfigurationError) exitRefused(e.lines);
    throw e;
  }
}
